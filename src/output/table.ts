import type { Column } from './columns.js';
import { oneLine } from './format.js';
import { displayWidth, truncate, truncateMiddle } from './width.js';
import type { Style } from './style.js';

/** Columns are separated by two spaces and have no borders, like kubectl and gh. */
export const GAP = 2;

/** `shrink` columns are first cut down to this width (or their header's) ... */
const SOFT_MIN = 10;
/** ... and, once the optional columns are gone, down to this; a narrower terminal wraps. */
const HARD_MIN = 4;

const NO_BORDERS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '',
  middle: ' '.repeat(GAP),
};

/** The columns a table shows and their widths. */
export interface TablePlan<T> {
  columns: Column<T>[];
  widths: number[];
}

const totalWidth = (widths: readonly number[]) =>
  widths.reduce((a, b) => a + b, 0) + GAP * Math.max(0, widths.length - 1);

/**
 * Fits a table into `available` terminal columns (docs/manual/help-output.md), giving the space to
 * what a person reads (names, titles, e-mail, city):
 * 1. the columns that are not `optional` are always shown; the optional ones join, the
 *    most useful first (highest `optional`), while everything still fits with each
 *    `shrink` column at its readable width (`readable`, or max(header, 10)) and each column
 *    in its narrowest form: so a wider terminal shows more columns;
 * 2. if the table is wider than the terminal at full width, columns take their `narrower`
 *    forms (an event's start instead of its span) before any name is cut;
 * 3. then `shrink` columns are cut, the one furthest above its readable width first, down to
 *    it; then down to max(header, 10), the others before the `keep` ones; then all to 4.
 * Ids and statuses are never cut. `available` Infinity (--wide) keeps everything as it is.
 */
export function planTable<T>(columns: readonly Column<T>[], items: readonly T[], available: number): TablePlan<T> {
  const widthOf = (header: string, table: (item: T) => string) =>
    Math.max(displayWidth(header), ...items.map((it) => displayWidth(oneLine(table(it)))));
  const forms = (column: Column<T>): Column<T>[] => [column, ...(column.narrower ?? []).map((n) => ({ ...column, ...n }))];
  type Planned = { forms: Column<T>[]; form: number; width: number; column: Column<T> };
  const planned = (column: Column<T>): Planned => {
    const all = forms(column);
    return { forms: all, form: 0, column: all[0]!, width: widthOf(column.header, column.table) };
  };
  const soft = (c: Column<T>) => Math.max(displayWidth(c.header), SOFT_MIN);
  const natural = (p: Planned) => widthOf(p.column.header, p.column.table);
  /** The width below which showing another column may not push it. */
  const floor = (p: Planned) => {
    const last = p.forms.at(-1)!;
    const w = widthOf(last.header, last.table);
    return p.column.shrink ? Math.min(w, p.column.readable ?? soft(p.column)) : w;
  };

  // 1. which columns: the required ones, then the optional ones while they fit at their floors
  const required = columns.filter((c) => c.optional === undefined);
  const chosen = new Set<Column<T>>(required);
  const byValue = columns.filter((c) => c.optional !== undefined).sort((a, b) => b.optional! - a.optional!);
  if (available !== Number.POSITIVE_INFINITY) {
    for (const candidate of byValue) {
      const withIt = columns.filter((c) => chosen.has(c) || c === candidate).map(planned);
      if (totalWidth(withIt.map(floor)) > available) break;
      chosen.add(candidate);
    }
  } else {
    for (const c of byValue) chosen.add(c);
  }
  const cols = columns.filter((c) => chosen.has(c)).map(planned);
  const excess = () => totalWidth(cols.map((c) => c.width)) - available;

  // 2. narrower forms, all but the last, before anything is cut; then 3. the cuts
  const narrow = (upTo: (p: Planned) => number) => {
    for (const p of cols) {
      while (excess() > 0 && p.form < upTo(p)) {
        p.form++;
        p.column = p.forms[p.form]!;
        p.width = natural(p);
      }
    }
  };
  narrow((p) => Math.max(0, p.forms.length - 2));
  // furthest above its readable width first, so a long name gives way before a short city
  for (let over = excess(); over > 0; over--) {
    let most: Planned | undefined;
    for (const p of cols) {
      const room = p.width - floor(p);
      if (p.column.shrink && room > 0 && (!most || room > most.width - floor(most))) most = p;
    }
    if (!most) break;
    most.width--;
  }
  narrow((p) => p.forms.length - 1);
  const squeeze = (which: (c: Column<T>) => boolean, min: (c: Column<T>) => number) => {
    for (let over = excess(); over > 0; over--) {
      let widest: Planned | undefined;
      for (const p of cols) {
        if (p.column.shrink && which(p.column) && p.width > min(p.column) && (!widest || p.width > widest.width)) widest = p;
      }
      if (!widest) return;
      widest.width--;
    }
  };
  squeeze((c) => !c.keep, soft);
  squeeze(() => true, soft);
  squeeze(() => true, () => HARD_MIN);
  return { columns: cols.map((p) => p.column), widths: cols.map((p) => p.width) };
}

/**
 * The table text for `items` (header first when `withHeader`), each line ending in `\n`.
 * Pages of `--all` reuse the first page's plan, so later rows line up under the header.
 */
export async function renderTable<T>(plan: TablePlan<T>, items: readonly T[], style: Style, withHeader: boolean): Promise<string> {
  if (!withHeader && items.length === 0) return '';
  const { default: Table } = await import('cli-table3');
  const { columns, widths } = plan;
  const table = new Table({
    head: withHeader ? columns.map((c, i) => style.bold(truncate(c.header, widths[i]!))) : [],
    colWidths: [...widths],
    chars: NO_BORDERS,
    // cli-table3 colours header and borders itself (via @colors/colors) unless told not to
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
    wordWrap: false,
  });
  for (const item of items) {
    table.push(
      columns.map((c, i) => {
        const cell = oneLine(c.table(item));
        const text = c.keep ? truncateMiddle(cell, widths[i]!) : truncate(cell, widths[i]!);
        return c.status ? style.status(text) : text;
      }),
    );
  }
  return `${table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')}\n`;
}
