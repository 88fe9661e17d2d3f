// The header row: which column holds which member field, what is ignored, and the columns
// of the report (the input's own columns, so a fixed report can be imported again).
import { CliError, ExitCode } from '../core/exit-codes.js';

export const MEMBER_COLUMNS = ['name', 'email', 'phone', 'membership_type'] as const;
export type MemberColumn = (typeof MEMBER_COLUMNS)[number];
const REQUIRED: readonly MemberColumn[] = ['name', 'email', 'membership_type'];

/** Added by the report; ignored without a warning when a report is imported again. */
export const REPORT_COLUMNS = ['line', 'status', 'reason'] as const;

export interface Header {
  /** Index of each member field's column; phone may be absent (-1). */
  index: Record<MemberColumn, number>;
  /** Number of columns the header names. */
  width: number;
  /** Columns that are ignored (named ones only, as written), for the one warning. */
  ignored: string[];
  /** Report columns: the input columns kept (as written), then line, status, reason. */
  reportColumns: string[];
  /** For each input column kept in the report, its index in a record. */
  reportSource: number[];
}

/**
 * `Membership Type`, ` EMAIL `, `E-Mail` and `membership-type` all name a field: names are
 * matched trimmed, case-insensitively, with spaces and dashes read as `_`.
 */
export function columnKey(name: string): string {
  const key = name.trim().toLowerCase().replace(/[\s-]+/g, '_');
  return key === 'e_mail' ? 'email' : key;
}

export function readHeader(fields: string[], line: number, delimiter: string): Header {
  const index: Record<MemberColumn, number> = { name: -1, email: -1, phone: -1, membership_type: -1 };
  const ignored: string[] = [];
  const reportColumns: string[] = [];
  const reportSource: number[] = [];
  // line, status and reason are an earlier report's own columns only when they come together
  // (a member list exported as CSV has a `status` of its own, which is data that is not sent)
  const keys = fields.map(columnKey);
  const isReport = (REPORT_COLUMNS as readonly string[]).every((c) => keys.includes(c));
  const reportColumn = (key: string) => isReport && (REPORT_COLUMNS as readonly string[]).includes(key);
  fields.forEach((raw, i) => {
    const name = raw.trim();
    const key = columnKey(raw);
    if ((MEMBER_COLUMNS as readonly string[]).includes(key)) {
      const column = key as MemberColumn;
      if (index[column] !== -1) {
        throw new CliError(
          `the header row (line ${line}) names the column ${column} twice (columns ${index[column] + 1} and ${i + 1})`,
          ExitCode.REJECTED,
        );
      }
      index[column] = i;
    } else if (!reportColumn(key) && name !== '') {
      ignored.push(name);
    }
    // an earlier report's own columns are replaced by this run's; unnamed columns are dropped
    if (name !== '' && !reportColumn(key) && !(REPORT_COLUMNS as readonly string[]).includes(key)) {
      reportColumns.push(name);
      reportSource.push(i);
    }
  });
  const missing = REQUIRED.filter((c) => index[c] === -1);
  if (missing.length > 0) {
    const hint = delimiterHint(fields, delimiter);
    throw new CliError(
      `the header row (line ${line}) has no column ${missing.join(', ')}; ` +
        `it must name the columns name, email, membership_type and optionally phone${hint}`,
      ExitCode.REJECTED,
    );
  }
  return { index, width: fields.length, ignored, reportColumns: [...reportColumns, ...REPORT_COLUMNS], reportSource };
}

/** A header read as one column that contains `;` or a tab was most likely split wrong. */
function delimiterHint(fields: string[], delimiter: string): string {
  if (fields.length !== 1) return '';
  const [only] = fields;
  for (const [char, flag] of [[';', "';'"], ['\t', 'tab'], [',', "','"], ['|', "'|'"]] as const) {
    if (char !== delimiter && only!.includes(char)) return ` (the header looks ${char === '\t' ? 'tab' : char}-separated: try --delimiter ${flag})`;
  }
  return '';
}
