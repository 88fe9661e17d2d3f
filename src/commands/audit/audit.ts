import type { CliContext, GlobalOptions } from '../../core/context.js';
import type { ResourceView } from '../../output/columns.js';
import { formatSecond, orNone } from '../../output/format.js';
import { ListWriter } from '../../output/list-writer.js';
import { createOutput } from '../../output/output.js';
import type { AuditRecord } from '../../storage/store.js';
import { parseClientId } from '../../team/client-id.js';
import { listAudit } from '../../team/clients.js';
import { parseLimit, parseSince } from '../../team/durations.js';
import { teamDbPath, withTeamStore } from '../../team/team-store.js';
import { checkJsonFields } from '../shared/options.js';

export interface AuditOptions {
  since?: string;
  client?: string;
  limit?: string;
  db?: string;
}

const FIELDS = ['at', 'action', 'client_id', 'target', 'request_id', 'address'] as const;

// TSV column order is part of the interface for scripts: append only.
const auditView: ResourceView<AuditRecord> = {
  noun: ['record', 'records'],
  fields: FIELDS,
  columns: [
    { header: 'AT (UTC)', table: (a) => formatSecond(a.at) },
    { header: 'ACTION', table: (a) => a.action },
    { header: 'CLIENT', table: (a) => orNone(a.client_id) },
    { header: 'TARGET', table: (a) => orNone(a.target) },
    { header: 'REQUEST ID', table: (a) => orNone(a.request_id), shrink: true, optional: 1 },
    { header: 'ADDRESS', table: (a) => orNone(a.address), optional: 2 },
  ],
  tsv: (a) => FIELDS.map((f) => a[f]),
  csv: { header: [...FIELDS], row: (a) => FIELDS.map((f) => a[f]) },
};

export async function runAudit(opts: AuditOptions, globals: GlobalOptions, ctx: CliContext): Promise<void> {
  checkJsonFields(globals, FIELDS, 'an audit record');
  const clientId = opts.client === undefined ? undefined : parseClientId(opts.client, '--client');
  const since = opts.since === undefined ? undefined : parseSince(opts.since, ctx.now());
  const limit = parseLimit(opts.limit);
  const path = teamDbPath(opts.db, ctx.env);
  const output = await createOutput(globals, ctx);
  const records = await withTeamStore(path, (store) => listAudit(store, { limit, ...(since ? { since } : {}), ...(clientId !== undefined ? { clientId } : {}) }));
  const writer = new ListWriter(auditView, output);
  await writer.page(records);
  await writer.end();
  if (records.length === 0) output.note('no audit records match');
  else if (records.length === limit) output.note(`${limit} records, the newest; --limit ${Math.min(limit * 10, 10_000)} or --since shows more or fewer`);
  else output.note(`${records.length} record${records.length === 1 ? '' : 's'}`);
}
