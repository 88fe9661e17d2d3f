import type { CliContext, GlobalOptions } from '../../core/context.js';
import { CliError, ExitCode, usageError } from '../../core/exit-codes.js';
import { sessionVersion } from '../../client/version.js';
import type { MemberCreateBody, Session } from '../../client/types.js';
import { Email, MemberCreate, Phone } from '../../contract/index.js';
import { createOutput, type Output } from '../../output/output.js';
import { printMember } from '../../output/record.js';
import { checkMissing, checkWith, type Asker } from '../shared/ask.js';
import { CHOICES } from '../shared/choices.js';
import { checkGiven, checkPayload, withSession } from '../shared/options.js';

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

const OPTION_OF: Record<string, string> = { name: 'name', email: 'email', phone: 'phone', membership_type: 'membershipType' };

/** The request body, as far as the options go. */
function bodyOf(opts: MembersAddOptions): unknown {
  return {
    name: opts.name,
    email: opts.email,
    ...(opts.phone === undefined ? {} : { phone: opts.phone }),
    membership_type: opts.membershipType,
  };
}

/** Builds the body and checks it with the contract (a bad e-mail is exit 5, nothing sent). */
export function parseMembersAdd(
  chamberId: string,
  opts: MembersAddOptions,
  globals: Pick<GlobalOptions, 'apiVersion'>,
): MembersAddRequest {
  if (!chamberId.trim()) throw usageError('CHAMBER_ID must not be empty');
  const body = checkPayload(MemberCreate, bodyOf(opts), 'the member', FLAG_OF);
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
  if (!chamberId.trim()) throw usageError('CHAMBER_ID must not be empty');
  // every option given is checked before anyone is asked for the others (exit 5 at once)
  const problems = checkGiven(MemberCreate, bodyOf(opts), opts, OPTION_OF, FLAG_OF);
  const missing = checkMissing(opts, REQUIRED, ctx, globals, problems);
  if (missing.length && problems.length) throw new CliError('the member is not valid; nothing was sent', ExitCode.REJECTED, problems);
  // everything given: checked before anything is opened, as always
  const req = missing.length ? undefined : parseMembersAdd(chamberId, opts, globals);
  const output = await createOutput(globals, ctx);
  await withSession(globals, ctx, async (session) => {
    // a profile that may not write is told so before anyone answers a prompt
    sessionVersion(session, ['members add'], globals.apiVersion);
    await session.requireWrite('members add');
    if (req) return membersAdd(req, session, output);
    const { openAsker } = await import('../shared/ask.js');
    const filled = await askMember(opts, missing, await openAsker(ctx));
    return membersAdd(parseMembersAdd(chamberId, filled, globals), session, output);
  }, output);
}

/** The options `members add` lacks, asked for; the e-mail checked by the contract as it is typed. */
export async function askMember(opts: MembersAddOptions, missing: string[], ask: Asker): Promise<MembersAddOptions> {
  const o = { ...opts };
  if (missing.includes('name')) o.name = await ask.text('Name');
  if (missing.includes('email')) o.email = await ask.text('E-mail', { validate: checkWith(Email) });
  if (missing.includes('email') && o.phone === undefined) o.phone = (await ask.text('Phone (optional)', { optional: true, validate: checkWith(Phone) })) || undefined;
  if (missing.includes('membershipType')) o.membershipType = await ask.select('Membership type', CHOICES.membershipType.map((t) => ({ name: t, value: t })));
  return o;
}
