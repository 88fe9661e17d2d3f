import type { CliContext, GlobalOptions } from '../../core/context.js';
import { sessionVersion } from '../../client/version.js';
import type { Session, WireQuery } from '../../client/types.js';
import { CHAMBER_SORT_FIELDS, ChamberStatus, ChamberType, sortParam } from '../../contract/index.js';
import { chamberView } from '../../output/columns.js';
import { withOutputDefault } from '../../config/defaults.js';
import { createOutput, type Output } from '../../output/output.js';
import { printList, type Paging } from '../../output/paged-list.js';
import { ListQuery, optionalValue, pageQuery, pagingOptions, withSession, type PagingOptions } from '../shared/options.js';

export interface ChambersListOptions extends PagingOptions {
  type?: string;
  status?: string;
  sort?: string;
}

export interface ChambersListRequest {
  /** filter[...] and sort, as sent (v2 only) */
  query: WireQuery;
  /** the options that need v2, for the version choice */
  v2Features: string[];
  paging: Paging;
  apiVersionFlag: GlobalOptions['apiVersion'];
}

/** Checks the options (exit 2 on a bad value) before anything is sent. */
export function parseChambersList(opts: ChambersListOptions, globals: Pick<GlobalOptions, 'apiVersion'>): ChambersListRequest {
  const { query, v2Features } = new ListQuery()
    .filter('--type', 'type', optionalValue('--type', ChamberType, opts.type))
    .filter('--status', 'status', optionalValue('--status', ChamberStatus, opts.status))
    .sort(optionalValue('--sort', sortParam(CHAMBER_SORT_FIELDS), opts.sort));
  return { query, v2Features, paging: pagingOptions(opts), apiVersionFlag: globals.apiVersion };
}

/** GET /chambers: v1 for plain paging under `auto`, v2 for filters and sort. */
export async function chambersList(req: ChambersListRequest, session: Session, output: Output): Promise<void> {
  const version = sessionVersion(session, req.v2Features, req.apiVersionFlag);
  await printList(
    (page, perPage) => session.api.listChambers(version, { ...req.query, ...pageQuery(page, perPage) }),
    req.paging,
    chamberView,
    output,
  );
}

export async function runChambersList(opts: ChambersListOptions, globals: GlobalOptions, ctx: CliContext): Promise<void> {
  const req = parseChambersList(opts, globals);
  const output = await createOutput(withOutputDefault(globals, ctx), ctx);
  await withSession(globals, ctx, (session) => chambersList(req, session, output), output);
}
