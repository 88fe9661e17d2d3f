import type { CliContext, GlobalOptions } from '../../core/context.js';
import { usageError } from '../../core/exit-codes.js';
import { sessionVersion } from '../../client/version.js';
import type { Session, WireQuery } from '../../client/types.js';
import { IncludeParam } from '../../contract/index.js';
import { createOutput, type Output } from '../../output/output.js';
import { printChamber } from '../../output/record.js';
import { optionalValue, withSession } from '../shared/options.js';

export interface ChambersGetOptions {
  include?: string;
}

export interface ChambersGetRequest {
  id: string;
  /** `include=members,events` (v2 only) */
  query: WireQuery;
  v2Features: string[];
  apiVersionFlag: GlobalOptions['apiVersion'];
}

export function parseChambersGet(id: string, opts: ChambersGetOptions, globals: Pick<GlobalOptions, 'apiVersion'>): ChambersGetRequest {
  if (!id.trim()) throw usageError('ID must not be empty');
  const include = optionalValue('--include', IncludeParam, opts.include);
  const wanted = include !== undefined && include.length > 0;
  return {
    id,
    query: wanted ? { include: include.join(',') } : {},
    v2Features: wanted ? ['--include'] : [],
    apiVersionFlag: globals.apiVersion,
  };
}

/** GET /chambers/{id}: v1 for a plain read under `auto`, v2 with --include. */
export async function chambersGet(req: ChambersGetRequest, session: Session, output: Output): Promise<void> {
  const version = sessionVersion(session, req.v2Features, req.apiVersionFlag);
  const chamber = await output.spin('Loading chamber…', session.api.getChamber(version, req.id, req.query));
  await printChamber(chamber, output);
}

export async function runChambersGet(id: string, opts: ChambersGetOptions, globals: GlobalOptions, ctx: CliContext): Promise<void> {
  const req = parseChambersGet(id, opts, globals);
  const output = await createOutput(globals, ctx);
  await withSession(globals, ctx, (session) => chambersGet(req, session, output), output);
}
