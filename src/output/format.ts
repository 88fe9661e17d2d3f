// Small value formatters shared by the renderers.
import stringWidth from 'string-width';

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
 * Table cells are single lines: control characters (newlines, tabs) become spaces so a
 * multi-line value cannot break the layout.
 */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
}

/**
 * Terminal columns a plain string takes, measured by string-width: East Asian wide
 * characters and emoji count two, a flag or a joined emoji sequence is one glyph, combining
 * marks and zero-width characters count nothing.
 */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

const graphemes = (text: string) => Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text), (g) => g.segment);

/** Cuts `text` to `width` columns, ending with an ellipsis when something was cut (never inside a glyph). */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  return `${take(graphemes(text), width - 1)}…`;
}

/**
 * Cuts `text` to `width` columns in the middle, keeping its start and its end: names that
 * share a long start (`Antwerp Business Chamber – Ghent Branch`) stay told apart.
 */
export function truncateMiddle(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width < 8) return truncate(text, width);
  const parts = graphemes(text);
  const tail = Math.floor((width - 1) / 2);
  const end = takeEnd(parts, tail);
  return `${take(parts, width - 1 - displayWidth(end)).trimEnd()}…${end.trimStart()}`;
}

/** The longest start of `parts` that fits `width` columns. */
function take(parts: string[], width: number): string {
  let out = '';
  let used = 0;
  for (const g of parts) {
    const w = displayWidth(g);
    if (used + w > width) break;
    out += g;
    used += w;
  }
  return out;
}

/** The longest end of `parts` that fits `width` columns. */
function takeEnd(parts: string[], width: number): string {
  let out = '';
  let used = 0;
  for (let i = parts.length - 1; i >= 0; i--) {
    const w = displayWidth(parts[i]!);
    if (used + w > width) break;
    out = parts[i]! + out;
    used += w;
  }
  return out;
}

