import type { CliContext, GlobalOptions } from '../../core/context.js';
import { usageError } from '../../core/exit-codes.js';
import { sessionVersion } from '../../client/version.js';
import type { Session, WireQuery } from '../../client/types.js';
import { MEMBER_SORT_FIELDS, MemberStatus, sortParam } from '../../contract/index.js';
import { memberView } from '../../output/columns.js';
import { withOutputDefault } from '../../config/defaults.js';
import { createOutput, type Output } from '../../output/output.js';
import { printList, type Paging } from '../../output/paged-list.js';
import { ListQuery, optionalValue, pageQuery, pagingOptions, withSession, type PagingOptions } from '../shared/options.js';

export interface MembersListOptions extends PagingOptions {
  status?: string;
  sort?: string;
}

export interface MembersListRequest {
  chamberId: string;
  query: WireQuery;
  v2Features: string[];
  paging: Paging;
  apiVersionFlag: GlobalOptions['apiVersion'];
}

export function parseMembersList(
  chamberId: string,
  opts: MembersListOptions,
  globals: Pick<GlobalOptions, 'apiVersion'>,
): MembersListRequest {
  if (!chamberId.trim()) throw usageError('CHAMBER_ID must not be empty');
  const { query, v2Features } = new ListQuery()
    .filter('--status', 'status', optionalValue('--status', MemberStatus, opts.status))
    .sort(optionalValue('--sort', sortParam(MEMBER_SORT_FIELDS), opts.sort));
  return { chamberId, query, v2Features, paging: pagingOptions(opts), apiVersionFlag: globals.apiVersion };
}

/** GET /chambers/{id}/members: v1 for plain paging under `auto`, v2 for --status and --sort. */
export async function membersList(req: MembersListRequest, session: Session, output: Output): Promise<void> {
  const version = sessionVersion(session, req.v2Features, req.apiVersionFlag);
  await printList(
    (page, perPage) => session.api.listMembers(version, req.chamberId, { ...req.query, ...pageQuery(page, perPage) }),
    req.paging,
    memberView,
    output,
  );
}

export async function runMembersList(
  chamberId: string,
  opts: MembersListOptions,
  globals: GlobalOptions,
  ctx: CliContext,
): Promise<void> {
  const req = parseMembersList(chamberId, opts, globals);
  const output = await createOutput(withOutputDefault(globals, ctx), ctx);
  await withSession(globals, ctx, (session) => membersList(req, session, output), output);
}
