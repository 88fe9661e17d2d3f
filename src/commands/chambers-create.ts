import type { CliContext } from '../cli/context.js';
import { sessionVersion } from '../client/version.js';
import type { ChamberCreateBody, GlobalOptions, Session } from '../client/types.js';
import { ChamberCreate } from '../contract/index.js';
import { createOutput, type Output } from '../output/output.js';
import { printChamber } from '../output/record.js';
import { checkMissing } from './ask.js';
import { promptsEnabled } from '../config/defaults.js';
import { canPrompt } from './auth-credentials.js';
import { checkPayload, withSession } from './options.js';

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

/** Builds the body and checks it with the contract: a bad value is exit 5 and nothing is sent. */
export function parseChambersCreate(opts: ChambersCreateOptions, globals: Pick<GlobalOptions, 'apiVersion'>): ChambersCreateRequest {
  const body = checkPayload(
    ChamberCreate,
    {
      name: opts.name,
      type: opts.type,
      ...(opts.hqId === undefined ? {} : { hq_id: opts.hqId }),
      address: {
        street: opts.street,
        city: opts.city,
        ...(opts.postalCode === undefined ? {} : { postal_code: opts.postalCode }),
        country: opts.country,
      },
    },
    'the chamber',
    FLAG_OF,
  );
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
  const missing = checkMissing(opts, REQUIRED, ctx, globals);
  const ask = missing.length > 0 || (opts.type === 'subsidiary' && opts.hqId === undefined && canPrompt(ctx) && promptsEnabled(globals, ctx));
  // everything given: checked before anything is opened, as always
  const req = ask ? undefined : parseChambersCreate(opts, globals);
  const output = await createOutput(globals, ctx);
  await withSession(globals, ctx, async (session) => {
    if (req) return chambersCreate(req, session, output);
    const { openAsker } = await import('./ask.js');
    const { askChamber } = await import('./ask-directory.js');
    const filled = await askChamber(opts, missing, await openAsker(ctx), session);
    return chambersCreate(parseChambersCreate(filled, globals), session, output);
  });
}
