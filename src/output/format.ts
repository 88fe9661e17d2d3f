// Small value formatters shared by the renderers.

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

/** Terminal columns a plain string takes (East Asian wide characters and emoji count two). */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += charWidth(ch.codePointAt(0) ?? 0);
  return width;
}

/** Cuts `text` to `width` columns, ending with an ellipsis when something was cut. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  let out = '';
  let used = 0;
  for (const ch of text) {
    const w = charWidth(ch.codePointAt(0) ?? 0);
    if (used + w > width - 1) break;
    out += ch;
    used += w;
  }
  return `${out}…`;
}

function charWidth(cp: number): number {
  if (cp === 0x200b || (cp >= 0x300 && cp <= 0x36f) || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0; // zero-width, combining marks
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}
