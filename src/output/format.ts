// Small value formatters shared by the renderers. Widths on a terminal are in width.ts.
import { terminalLine } from '../core/terminal-text.js';

/**
 * Times in tables are absolute and in UTC, `2026-11-22 14:05`: the same on every machine,
 * sortable, and exactly what the server stores (TSV and JSON carry the ISO 8601 string).
 * Anything that is not a valid time is shown as received.
 */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toISOString().slice(0, 16).replace('T', ' ');
}

/** To the second, `2026-11-22 14:05:09` (UTC), where the minute is too coarse: an audit trail, a secret's last moment. */
export function formatSecond(iso: string | null | undefined): string {
  const t = formatTime(iso);
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(t) ? `${t}${new Date(iso!).toISOString().slice(16, 19)}` : t;
}

/** The UTC day of a time, `2026-11-22` (lists show days; single records show the time too). */
export function formatDate(iso: string | null | undefined): string {
  const t = formatTime(iso);
  return /^\d{4}-\d{2}-\d{2} /.test(t) ? t.slice(0, 10) : t;
}

/**
 * An event's span, as short as stays unambiguous: `2026-03-05 18:00–20:00` within a day,
 * `2026-03-05 18:00 – 03-07 12:00` within a year, else both times in full.
 */
export function formatSpan(startIso: string, endIso: string): string {
  const start = formatTime(startIso);
  const end = formatTime(endIso);
  const valid = (t: string) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(t);
  if (!valid(start) || !valid(end)) return `${start} – ${end}`;
  if (start.slice(0, 11) === end.slice(0, 11)) return `${start}–${end.slice(11)}`;
  if (start.slice(0, 5) === end.slice(0, 5)) return `${start} – ${end.slice(5)}`;
  return `${start} – ${end}`;
}

/** The placeholder tables show for an absent value. */
export const NONE = '-';

export function orNone(value: string | null | undefined): string {
  return value === null || value === undefined || value === '' ? NONE : value;
}

/**
 * One TSV field: absent values are empty, and the characters that would break the row
 * apart are escaped the way `cut`/`awk` users expect from gh: `\` → `\\`, tab → `\t`,
 * newline → `\n`, carriage return → `\r`.
 */
export function tsvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  return String(value).replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

export function tsvRow(values: ReadonlyArray<string | number | null | undefined>): string {
  return `${values.map(tsvField).join('\t')}\n`;
}

/**
 * Table cells are single lines: newlines, tabs and carriage returns become spaces so a
 * multi-line value cannot break the layout; any other control character (C0, DEL, C1)
 * is shown inert (core/terminal-text.ts).
 */
export function oneLine(text: string): string {
  return terminalLine(text.replace(/[\t\n\r]+/g, ' '));
}
