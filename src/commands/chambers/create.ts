import type { CliContext, GlobalOptions } from '../../core/context.js';
import { CliError, ExitCode } from '../../core/exit-codes.js';
import { sessionVersion } from '../../client/version.js';
import type { ChamberCreateBody, Session } from '../../client/types.js';
import { ChamberCreate, CountryCode } from '../../contract/index.js';
import { createOutput, type Output } from '../../output/output.js';
import { printChamber } from '../../output/record.js';
import { canPrompt, checkMissing, checkWith, type Asker } from '../shared/ask.js';
import { CHOICES } from '../shared/choices.js';
import { promptsEnabled } from '../../config/defaults.js';
import { checkGiven, checkPayload, withSession } from '../shared/options.js';

/** As commander hands them over: the required ones may be missing (then asked for, on a terminal). */
export interface ChambersCreateOptions {
  name: string;
  type: string;
  hqId?: string;
  street: string;
  city: string;
  postalCode?: string;
  country: string;
}

export interface ChambersCreateRequest {
  body: ChamberCreateBody;
  apiVersionFlag: GlobalOptions['apiVersion'];
}

/** Which option sets each field, for the messages of a rejected payload. */
const FLAG_OF: Record<string, string> = {
  name: '--name',
  type: '--type',
  hq_id: '--hq-id',
  address: '--street/--city/--country',
  'address.street': '--street',
  'address.city': '--city',
  'address.postal_code': '--postal-code',
  'address.country': '--country',
};

/** Which option key sets each field, to tell the options given from those still to ask for. */
const OPTION_OF: Record<string, string> = {
  name: 'name',
  type: 'type',
  hq_id: 'hqId',
  'address.street': 'street',
  'address.city': 'city',
  'address.postal_code': 'postalCode',
  'address.country': 'country',
};

/** The request body, as far as the options go. */
function bodyOf(opts: ChambersCreateOptions): unknown {
  return {
    name: opts.name,
    type: opts.type,
    ...(opts.hqId === undefined ? {} : { hq_id: opts.hqId }),
    address: {
      street: opts.street,
      city: opts.city,
      ...(opts.postalCode === undefined ? {} : { postal_code: opts.postalCode }),
      country: opts.country,
    },
  };
}

/** Builds the body and checks it with the contract: a bad value is exit 5 and nothing is sent. */
export function parseChambersCreate(opts: ChambersCreateOptions, globals: Pick<GlobalOptions, 'apiVersion'>): ChambersCreateRequest {
  const body = checkPayload(ChamberCreate, bodyOf(opts), 'the chamber', FLAG_OF);
  return { body, apiVersionFlag: globals.apiVersion };
}

/** POST /v2/chambers. */
export async function chambersCreate(req: ChambersCreateRequest, session: Session, output: Output): Promise<void> {
  sessionVersion(session, ['chambers create'], req.apiVersionFlag);
  const chamber = await output.spin('Creating chamber…', session.api.createChamber(req.body));
  await printChamber(chamber, output);
}

/** The options commander no longer insists on, so that a person can be asked for them. */
const REQUIRED = { name: '--name <name>', type: '--type <type>', street: '--street <street>', city: '--city <city>', country: '--country <cc>' };

export async function runChambersCreate(opts: ChambersCreateOptions, globals: GlobalOptions, ctx: CliContext): Promise<void> {
  // every option given is checked before anyone is asked for the others (exit 5 at once)
  const problems = checkGiven(ChamberCreate, bodyOf(opts), opts, OPTION_OF, FLAG_OF);
  const missing = checkMissing(opts, REQUIRED, ctx, globals, problems);
  const ask = missing.length > 0 || (opts.type === 'subsidiary' && opts.hqId === undefined && canPrompt(ctx) && promptsEnabled(globals, ctx));
  if (ask && problems.length) throw new CliError('the chamber is not valid; nothing was sent', ExitCode.REJECTED, problems);
  // everything given: checked before anything is opened, as always
  const req = ask ? undefined : parseChambersCreate(opts, globals);
  const output = await createOutput(globals, ctx);
  await withSession(globals, ctx, async (session) => {
    // a profile that may not write is told so before anyone answers a prompt
    sessionVersion(session, ['chambers create'], globals.apiVersion);
    await session.requireWrite('chambers create');
    if (req) return chambersCreate(req, session, output);
    const { openAsker } = await import('../shared/ask.js');
    const filled = await askChamber(opts, missing, await openAsker(ctx), session);
    return chambersCreate(parseChambersCreate(filled, globals), session, output);
  }, output);
}

/** The options `chambers create` lacks, asked for; the HQ of a subsidiary chosen from the HQs. */
export async function askChamber(opts: ChambersCreateOptions, missing: string[], ask: Asker, session: Session): Promise<ChambersCreateOptions> {
  const o = { ...opts };
  if (missing.includes('name')) o.name = await ask.text('Name');
  if (missing.includes('type')) {
    o.type = await ask.select('Type', CHOICES.chamberType.map((t) => ({ name: t === 'hq' ? 'hq (headquarters)' : 'subsidiary (of an HQ)', value: t })));
  }
  if (o.type === 'subsidiary' && o.hqId === undefined) o.hqId = await chooseHq(ask, session);
  if (missing.includes('street')) o.street = await ask.text('Street and number');
  if (missing.includes('city')) o.city = await ask.text('City');
  if (missing.includes('country')) {
    o.country = await ask.text('Country (ISO 3166-1 alpha-2, e.g. DE)', { validate: checkWith(CountryCode) });
    if (o.postalCode === undefined) o.postalCode = (await ask.text('Postal code (optional)', { optional: true })) || undefined;
  }
  return o;
}

/** The HQs by name (the first 100; a list that long also offers typing an id). */
async function chooseHq(ask: Asker, session: Session): Promise<string> {
  const { data, meta } = await session.api.listChambers('v2', { 'filter[type]': 'hq', sort: 'name', per_page: '100' });
  const choices = data.map((c) => ({ name: `${c.name} (${c.id})`, value: c.id, description: [c.address?.city, c.address?.country].filter(Boolean).join(', ') }));
  if (meta.total > data.length || data.length === 0) choices.push({ name: 'Another HQ: type its id', value: '', description: '' });
  const picked = await ask.select('HQ of the subsidiary', choices);
  return picked || ask.text('HQ id');
}
