import type { CliContext, GlobalOptions } from '../../core/context.js';
import type { ResourceView } from '../../output/columns.js';
import { formatSecond, orNone } from '../../output/format.js';
import { ListWriter } from '../../output/list-writer.js';
import { createOutput } from '../../output/output.js';
import type { AuditRecord } from '../../storage/store.js';
import { usageError } from '../../core/exit-codes.js';
import { parseActionPattern } from '../../team/audit-filter.js';
import { parseClientId } from '../../team/client-id.js';
import { listAudit } from '../../team/clients.js';
import { AUDIT_LIMIT, parseLimit, parseSince } from '../../team/durations.js';
import { teamDbPath, withTeamStore } from '../../team/team-store.js';
import { AUDIT_FIELDS as FIELDS } from './fields.js';

export interface AuditOptions {
  since?: string;
  client?: string;
  target?: string;
  action?: string;
  limit?: string;
  db?: string;
}

/** TSV and CSV columns: the order scripts rely on, appended to only (operator and detail came later). */
const COLUMNS = ['at', 'action', 'client_id', 'target', 'request_id', 'address', 'operator', 'detail'] as const;

export const auditView: ResourceView<AuditRecord> = {
  noun: ['record', 'records'],
  fields: FIELDS,
  columns: [
    { header: 'AT (UTC)', table: (a) => formatSecond(a.at) },
    { header: 'ACTION', table: (a) => a.action },
    { header: 'CLIENT', table: (a) => orNone(a.client_id) },
    { header: 'OPERATOR', table: (a) => orNone(a.operator), shrink: true, keep: true, readable: 16 },
    { header: 'TARGET', table: (a) => orNone(a.target) },
    { header: 'DETAIL', table: (a) => orNone(a.detail), optional: 3 },
    { header: 'REQUEST ID', table: (a) => orNone(a.request_id), shrink: true, optional: 1 },
    { header: 'ADDRESS', table: (a) => orNone(a.address), optional: 2 },
  ],
  tsv: (a) => COLUMNS.map((f) => a[f]),
  csv: { header: [...COLUMNS], row: (a) => COLUMNS.map((f) => a[f]) },
};

/**
 * The footer of a full page: `limit` records were shown and there may be more. It suggests a
 * larger --limit only when there is one (twice this one, at most the maximum), and --since.
 */
export function fullPageNote(limit: number): string {
  const shown = `${limit} record${limit === 1 ? '' : 's'}, the newest`;
  if (limit >= AUDIT_LIMIT.max) return `${shown} (the most --limit shows); --since picks a period`;
  return `${shown}; --limit ${Math.min(limit * 2, AUDIT_LIMIT.max)} shows more, --since picks a period`;
}

export async function runAudit(opts: AuditOptions, globals: GlobalOptions, ctx: CliContext): Promise<void> {
  const clientId = opts.client === undefined ? undefined : parseClientId(opts.client, '--client');
  const since = opts.since === undefined ? undefined : parseSince(opts.since, ctx.now());
  const limit = parseLimit(opts.limit);
  const target = opts.target === undefined ? undefined : opts.target.trim();
  if (target === '') throw usageError('--target needs an id: a client id, or a chamber or member id');
  const actions = opts.action === undefined ? undefined : parseActionPattern(opts.action);
  const path = teamDbPath(opts.db, ctx.env, globals.profile);
  const output = await createOutput(globals, ctx);
  const records = await withTeamStore(path, (store) =>
    listAudit(store, { limit, ...(since ? { since } : {}), ...(clientId !== undefined ? { clientId } : {}), ...(target !== undefined ? { target } : {}), ...(actions ? { actions } : {}) }),
  );
  const writer = new ListWriter(auditView, output);
  await writer.page(records);
  await writer.end();
  if (records.length === 0) output.note('no audit records match');
  else if (records.length === limit) output.note(fullPageNote(limit));
  else output.note(`${records.length} record${records.length === 1 ? '' : 's'}`);
}
