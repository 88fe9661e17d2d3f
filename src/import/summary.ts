// The end of an import, on stdout (it is the command's data): with --json one object and
// nothing else; on a terminal a label/value table; piped, `key<TAB>value` lines.
import { tsvRow } from '../output/format.js';
import type { Output } from '../output/output.js';

/** Each data row lands in exactly one of created, skipped, invalid, duplicate, failed, valid. */
export interface ImportSummary {
  chamber_id: string;
  /** The input path, or `-` for stdin. */
  file: string;
  dry_run: boolean;
  /** Stopped early (Ctrl-C, or an error that ends the import); run the same command again to finish. */
  interrupted: boolean;
  /** Data rows read (the header, blank lines and blank rows not counted). */
  rows: number;
  created: number;
  /** Already members of the chamber (the server answered 409). */
  skipped: number;
  /** Rejected by the checks before sending, by the server (422), or malformed CSV. */
  invalid: number;
  /** The same e-mail (any case) as an earlier row of the file. */
  duplicate: number;
  /** Still failing after the retries. */
  failed: number;
  /** --dry-run: rows that passed every check and would be sent; 0 in a real run. */
  valid: number;
  /** The line of the last row read. */
  last_line: number;
  elapsed_seconds: number;
  rows_per_second: number;
  /** The --report path, or null. */
  report: string | null;
  /** Columns of the header that are not member fields (a `status` or `id` column, say): not sent. */
  ignored_columns: string[];
}

/** Exit 0 when every row was created or skipped (or is valid, in a dry run), else 1. */
export function summaryExitCode(s: ImportSummary): 0 | 1 {
  return s.invalid + s.duplicate + s.failed > 0 ? 1 : 0;
}

export async function printSummary(s: ImportSummary, output: Output): Promise<void> {
  const { mode, prettyJson } = output.settings;
  if (mode === 'json') {
    const fields = output.settings.fields;
    const shown = fields ? Object.fromEntries(fields.map((f) => [f, s[f as keyof ImportSummary]])) : s;
    await output.stdout.write(`${prettyJson ? output.out.json(JSON.stringify(shown, null, 2)) : JSON.stringify(shown)}\n`);
    return;
  }
  if (mode === 'tsv') {
    await output.stdout.write(
      Object.entries(s)
        .map(([k, v]) => tsvRow([k, v === null ? '' : Array.isArray(v) ? v.join(',') : String(v)]))
        .join(''),
    );
    return;
  }
  const rows: Array<[string, string]> = s.dry_run
    ? [['Valid', `${s.valid}  (not sent: --dry-run)`]]
    : [
        ['Created', String(s.created)],
        ['Skipped', `${s.skipped}${s.skipped ? '  (already members)' : ''}`],
      ];
  rows.push(
    ['Invalid', String(s.invalid)],
    ['Duplicate', `${s.duplicate}${s.duplicate ? '  (same e-mail as an earlier row)' : ''}`],
  );
  if (!s.dry_run) rows.push(['Failed', String(s.failed)]);
  rows.push(
    ['Rows', `${s.rows}${s.interrupted ? `  (interrupted after line ${s.last_line})` : ''}`],
    ['Elapsed', `${s.elapsed_seconds.toFixed(1)} s`],
    ['Rate', `${Math.round(s.rows_per_second)} rows/s`],
  );
  if (s.report !== null) rows.push(['Report', s.report]);
  if (s.ignored_columns.length) rows.push(['Ignored', `${s.ignored_columns.join(', ')}  (columns that are not member fields: not sent)`]);
  const width = Math.max(...rows.map(([label]) => label.length));
  const text = rows.map(([label, value]) => `${output.out.bold(label.padEnd(width))}  ${value}\n`).join('');
  await output.stdout.write(text);
}
