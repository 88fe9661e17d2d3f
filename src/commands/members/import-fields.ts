import type { ImportSummary } from '../../import/summary.js';

/** The fields of `members import`'s summary, for `--json FIELDS` (checked as the list commands check theirs). */
export const IMPORT_SUMMARY_FIELDS = [
  'chamber_id',
  'file',
  'dry_run',
  'interrupted',
  'rows',
  'created',
  'skipped',
  'invalid',
  'duplicate',
  'failed',
  'valid',
  'last_line',
  'elapsed_seconds',
  'rows_per_second',
  'report',
  'ignored_columns',
] as const satisfies readonly (keyof ImportSummary)[];
