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
 * Fits a table into `available` terminal columns (README, "Tables"). Every column wants its
 * widest cell; while the table is too wide: `optional` columns are left out (lowest first),
 * then `shrink` columns lose one column at a time, the widest first, down to max(header, 10):
 * the others before the `keep` ones (names, e-mail); then all of them down to 4. Ids and
 * statuses are never cut. `available` Infinity (--wide) keeps everything as it is.
 */
export function planTable<T>(columns: readonly Column<T>[], items: readonly T[], available: number): TablePlan<T> {
  const natural = (column: Column<T>) => Math.max(displayWidth(column.header), ...items.map((it) => displayWidth(oneLine(column.table(it)))));
  let cols = columns.map((column) => ({ column, width: natural(column) }));
  const tooWide = () => totalWidth(cols.map((c) => c.width)) > available;
  const squeeze = (which: (c: Column<T>) => boolean, min: (c: Column<T>) => number) => {
    let excess = totalWidth(cols.map((c) => c.width)) - available;
    while (excess > 0) {
      let widest: (typeof cols)[number] | undefined;
      for (const c of cols) {
        if (c.column.shrink && which(c.column) && c.width > min(c.column) && (!widest || c.width > widest.width)) widest = c;
      }
      if (!widest) return;
      widest.width--;
      excess--;
    }
  };
  const optional = cols.filter((c) => c.column.optional !== undefined).sort((a, b) => a.column.optional! - b.column.optional!);
  for (const drop of optional) {
    if (!tooWide()) break;
    cols = cols.filter((c) => c !== drop);
  }
  const soft = (c: Column<T>) => Math.max(displayWidth(c.header), SOFT_MIN);
  squeeze((c) => !c.keep, soft);
  squeeze(() => true, soft);
  squeeze(() => true, () => HARD_MIN);
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
