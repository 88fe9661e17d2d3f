import type { CliContext, GlobalOptions } from '../../core/context.js';
import { usageError } from '../../core/exit-codes.js';
import { sessionVersion } from '../../client/version.js';
import type { Session } from '../../client/types.js';
import { createOutput, type Output } from '../../output/output.js';
import { printMember } from '../../output/record.js';
import { withSession } from '../shared/options.js';

export interface MembersGetRequest {
  chamberId: string;
  memberId: string;
  apiVersionFlag: GlobalOptions['apiVersion'];
}

export function parseMembersGet(chamberId: string, memberId: string, globals: Pick<GlobalOptions, 'apiVersion'>): MembersGetRequest {
  if (!chamberId.trim()) throw usageError('CHAMBER_ID must not be empty');
  if (!memberId.trim()) throw usageError('MEMBER_ID must not be empty');
  return { chamberId, memberId, apiVersionFlag: globals.apiVersion };
}

/**
 * GET /v2/chambers/{id}/members/{member_id}: the embedded server's route
 * (docs/server-behaviour.md#extensions), not the interface document's, so v2 only; a server without
 * it answers 404 or 405.
 */
export async function membersGet(req: MembersGetRequest, session: Session, output: Output): Promise<void> {
  sessionVersion(session, ['members get'], req.apiVersionFlag);
  const member = await output.spin('Loading member…', session.api.getMember(req.chamberId, req.memberId));
  await printMember(member, output);
}

export async function runMembersGet(chamberId: string, memberId: string, globals: GlobalOptions, ctx: CliContext): Promise<void> {
  const req = parseMembersGet(chamberId, memberId, globals);
  const output = await createOutput(globals, ctx);
  await withSession(globals, ctx, (session) => membersGet(req, session, output), output);
}
