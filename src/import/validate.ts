// One data row → the body to send, or the reason it cannot be sent. The rules are the
// contract's MemberCreate schema, the same the server applies.
import { MemberCreate, parseWith } from '../contract/index.js';
import { unprotectCell } from '../output/csv-cells.js';
import type { Header, MemberColumn } from './header.js';

export type CheckedRow =
  | { ok: true; body: MemberCreate; emailKey: string }
  | { ok: false; reason: string };

/** U+FFFD is what bytes that are not UTF-8 (a Latin-1 export, say) decode to. */
const NOT_UTF8 = '\uFFFD';

/** True for a row of empty or blank values only (`,,,` from a spreadsheet): skipped like a blank line. */
export function isBlankRow(fields: readonly string[]): boolean {
  return fields.every((f) => f.trim() === '');
}

export function checkRow(fields: readonly string[], header: Header): CheckedRow {
  const beyond = fields.slice(header.width).filter((f) => f.trim() !== '');
  if (beyond.length > 0) {
    return {
      ok: false,
      reason:
        `has ${fields.length} values but the header names ${header.width} columns (a value with the delimiter in it, not quoted?); ` +
        `the extra values: ${beyond.map((v) => JSON.stringify(v)).join(', ')}`,
    };
  }
  const value = (column: MemberColumn): string | undefined => {
    const i = header.index[column];
    // a `'` that an export or the report put before `=`, `+`, `-`, `@` comes off (csv-cells.ts)
    return i === -1 || fields[i] === undefined ? undefined : unprotectCell(fields[i]);
  };
  const input: Record<string, string> = {};
  const encodingErrors: string[] = [];
  for (const column of ['name', 'email', 'phone', 'membership_type'] as const) {
    const v = value(column);
    if (v === undefined) continue; // a short row: the schema says "is required" where it matters
    if (v.includes(NOT_UTF8)) encodingErrors.push(`${column}: is not UTF-8 text (save the file as UTF-8)`);
    // membership types are lower-case words; `Premium` can only mean premium
    input[column] = column === 'membership_type' ? v.trim().toLowerCase() : v;
  }
  if (input.phone !== undefined && input.phone.trim() === '') delete input.phone;
  const parsed = parseWith(MemberCreate, input);
  if (!parsed.ok || encodingErrors.length > 0) {
    const messages = parsed.ok
      ? []
      : Object.entries(parsed.fields).flatMap(([field, list]) => list.map((m) => `${field}: ${m}`));
    return { ok: false, reason: [...encodingErrors, ...messages].join('; ') };
  }
  return { ok: true, body: parsed.value, emailKey: parsed.value.email.toLowerCase() };
}
