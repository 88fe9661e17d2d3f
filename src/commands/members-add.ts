import type { CliContext } from '../cli/context.js';
import { usageError } from '../cli/exit-codes.js';
import { sessionVersion } from '../client/version.js';
import type { GlobalOptions, MemberCreateBody, Session } from '../client/types.js';
import { MemberCreate } from '../contract/index.js';
import { createOutput, type Output } from '../output/output.js';
import { printMember } from '../output/record.js';
import { checkMissing } from './ask.js';
import { checkPayload, withSession } from './options.js';

export interface MembersAddOptions {
  name: string;
  email: string;
  phone?: string;
  membershipType: string;
}

export interface MembersAddRequest {
  chamberId: string;
  body: MemberCreateBody;
  apiVersionFlag: GlobalOptions['apiVersion'];
}

const FLAG_OF: Record<string, string> = {
  name: '--name',
  email: '--email',
  phone: '--phone',
  membership_type: '--membership-type',
};

/** Builds the body and checks it with the contract (a bad e-mail is exit 5, nothing sent). */
export function parseMembersAdd(
  chamberId: string,
  opts: MembersAddOptions,
  globals: Pick<GlobalOptions, 'apiVersion'>,
): MembersAddRequest {
  if (!chamberId.trim()) throw usageError('CHAMBER_ID must not be empty');
  const body = checkPayload(
    MemberCreate,
    {
      name: opts.name,
      email: opts.email,
      ...(opts.phone === undefined ? {} : { phone: opts.phone }),
      membership_type: opts.membershipType,
    },
    'the member',
    FLAG_OF,
  );
  return { chamberId, body, apiVersionFlag: globals.apiVersion };
}

/** POST /v2/chambers/{id}/members. */
export async function membersAdd(req: MembersAddRequest, session: Session, output: Output): Promise<void> {
  sessionVersion(session, ['members add'], req.apiVersionFlag);
  const member = await output.spin('Adding member…', session.api.addMember(req.chamberId, req.body));
  await printMember(member, output);
}

/** The options commander no longer insists on, so that a person can be asked for them. */
const REQUIRED = { name: '--name <name>', email: '--email <email>', membershipType: '--membership-type <type>' };

export async function runMembersAdd(chamberId: string, opts: MembersAddOptions, globals: GlobalOptions, ctx: CliContext): Promise<void> {
  const missing = checkMissing(opts, REQUIRED, ctx, globals);
  let filled = opts;
  if (missing.length) {
    if (!chamberId.trim()) throw usageError('CHAMBER_ID must not be empty');
    const { openAsker } = await import('./ask.js');
    const { askMember } = await import('./ask-directory.js');
    filled = await askMember(opts, missing, await openAsker(ctx));
  }
  const req = parseMembersAdd(chamberId, filled, globals);
  const output = await createOutput(globals, ctx);
  await withSession(globals, ctx, (session) => membersAdd(req, session, output));
}
