import type { Column } from './columns.js';
import { displayWidth, oneLine, truncate } from './format.js';
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
 * Fits a table into `available` terminal columns. Every column wants its widest cell; while
 * the table is too wide: the widest `shrink` column loses one column at a time down to
 * max(header, 10); then `optional` columns are left out (lowest `optional` first); then
 * `shrink` columns go down to 4. Ids, times and statuses are never cut.
 */
export function planTable<T>(columns: readonly Column<T>[], items: readonly T[], available: number): TablePlan<T> {
  let cols = columns.map((column) => ({
    column,
    width: Math.max(displayWidth(column.header), ...items.map((it) => displayWidth(oneLine(column.table(it))))),
  }));
  const squeeze = (min: (c: Column<T>) => number) => {
    let excess = totalWidth(cols.map((c) => c.width)) - available;
    while (excess > 0) {
      let widest: (typeof cols)[number] | undefined;
      for (const c of cols) {
        if (c.column.shrink && c.width > min(c.column) && (!widest || c.width > widest.width)) widest = c;
      }
      if (!widest) return;
      widest.width--;
      excess--;
    }
  };
  squeeze((c) => Math.max(displayWidth(c.header), SOFT_MIN));
  const optional = cols
    .filter((c) => c.column.optional !== undefined)
    .sort((a, b) => a.column.optional! - b.column.optional!);
  for (const drop of optional) {
    if (totalWidth(cols.map((c) => c.width)) <= available) break;
    cols = cols.filter((c) => c !== drop);
    // what the dropped column freed may let the others grow back
    for (const c of cols) {
      c.width = Math.max(displayWidth(c.column.header), ...items.map((it) => displayWidth(oneLine(c.column.table(it)))));
    }
    squeeze((c) => Math.max(displayWidth(c.header), SOFT_MIN));
  }
  squeeze(() => HARD_MIN);
  return { columns: cols.map((c) => c.column), widths: cols.map((c) => c.width) };
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
        const text = truncate(oneLine(c.table(item)), widths[i]!);
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
