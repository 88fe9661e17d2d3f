import type { ListMeta } from '../contract/index.js';
import { countOf, type ResourceView } from './columns.js';
import { tsvRow } from './format.js';
import { jsonText, terminalText } from '../core/terminal-text.js';
import { protectCell } from './csv-cells.js';
import type { Output } from './output.js';
import type { TablePlan } from './table.js';
import { pickFields } from './settings.js';

/**
 * Writes a list page by page, as the pages arrive, in the output mode of the run:
 * - json: `[`, the items separated by commas, `]`: one valid array however many pages;
 * - tsv: one row per item, no header;
 * - table: the header and the column layout come from the first page with items
 *   (a longer value on a later page is cut with `…`).
 * Nothing is kept beyond the page at hand.
 */
export class ListWriter<T> {
  #count = 0;
  #plan: TablePlan<T> | undefined;

  constructor(
    readonly view: ResourceView<T>,
    readonly output: Output,
  ) {}

  /** Items written so far. */
  get count(): number {
    return this.#count;
  }

  async page(items: readonly T[]): Promise<void> {
    const { mode, prettyJson, width } = this.output.settings;
    if (items.length === 0) return;
    let text: string;
    if (mode === 'json') {
      const { fields } = this.output.settings;
      const parts = items.map((item) => {
        const it = pickFields(item, fields);
        return prettyJson ? this.output.out.json(indent(jsonText(JSON.stringify(it, null, 2)))) : jsonText(JSON.stringify(it));
      });
      text = `${this.#count === 0 ? '[\n' : ',\n'}${parts.join(',\n')}`;
    } else if (mode === 'tsv') {
      text = items.map((it) => tsvRow(this.view.tsv(it))).join('');
      // data in a pipe or file, exactly; on a terminal, its controls inert (core/terminal-text.ts)
      if (this.output.settings.stdoutIsTTY) text = terminalText(text);
    } else if (mode === 'csv') {
      const { rawCsv, stdoutIsTTY } = this.output.settings;
      const cell = (c: string | number | null) => {
        const kept = rawCsv ? c : protect(c);
        return stdoutIsTTY && typeof kept === 'string' ? terminalText(kept) : kept;
      };
      const row = (it: T) => this.view.csv.row(it).map(cell);
      text = await csvRows([...(this.#count === 0 ? [this.view.csv.header] : []), ...items.map(row)]);
    } else {
      // loaded by a table only: measuring terminal widths is costly to load (width.ts)
      const { planTable, renderTable } = await import('./table.js');
      const first = this.#plan === undefined;
      this.#plan ??= planTable(this.view.columns, items, width);
      text = await renderTable(this.#plan, items, this.output.out, first);
    }
    this.#count += items.length;
    await this.output.stdout.write(text);
  }

  /** Closes the JSON array (`[]` when there were no items); a CSV of no items is its header. */
  async end(): Promise<void> {
    if (this.output.settings.mode === 'csv' && this.#count === 0) await this.output.stdout.write(await csvRows([this.view.csv.header]));
    if (this.output.settings.mode !== 'json') return;
    await this.output.stdout.write(this.#count === 0 ? '[]\n' : '\n]\n');
  }
}

const indent = (text: string) => text.replace(/^/gm, '  ');

/** A text cell a spreadsheet would run as a formula gets a leading `'` (csv-cells.ts); numbers and nulls stay. */
const protect = (cell: string | number | null) => (typeof cell === 'string' ? protectCell(cell) : cell);

/**
 * RFC 4180: CRLF after every record, quotes where needed; null is an empty field. A field
 * with any line break is quoted: csv-stringify quotes the record delimiter (CRLF) of its
 * own accord, but not a lone LF or CR, which would end the record early for any reader.
 * A value that begins with `=`, `+`, `-`, `@`, a tab or a CR is written with a leading `'`
 * unless --raw (csv-cells.ts; docs/manual/help-csv-format.md, "Formulas"): `members import`
 * takes it off again.
 * csv-stringify is loaded only by a CSV list, not on every list's start-up.
 */
async function csvRows(rows: Array<Array<string | number | null>>): Promise<string> {
  const { stringify } = await import('csv-stringify/sync');
  return stringify(rows, { record_delimiter: 'windows', quoted_match: /[\r\n]/, cast: { number: String } });
}

/**
 * The line under a single page for a person (stderr, terminal only), e.g.
 * `page 1 of 12 (234 chambers) — use --page 2 or --all`.
 */
export function pageFooter(view: { noun: [string, string] }, meta: ListMeta): string {
  const perPage = Math.max(1, meta.per_page);
  const pages = Math.max(1, Math.ceil(meta.total / perPage));
  const total = countOf(view, meta.total);
  if (meta.total === 0) return `no ${view.noun[1]}`;
  if (meta.current_page > pages) return `page ${meta.current_page} is past the end: ${pages} page${pages === 1 ? '' : 's'} (${total})`;
  const head = `page ${meta.current_page} of ${pages} (${total})`;
  return meta.current_page < pages ? `${head} — use --page ${meta.current_page + 1} or --all` : head;
}
