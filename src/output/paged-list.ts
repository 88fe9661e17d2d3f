import { CliError } from '../core/exit-codes.js';
import type { ListPage } from '../contract/index.js';
import { countOf, type ResourceView } from './columns.js';
import { ListWriter, pageFooter } from './list-writer.js';
import type { Output } from './output.js';
import { isLastPage } from '../client/last-page.js';

/** `--all` asks for the largest page the interface serves. */
export const ALL_PER_PAGE = 100;

export interface Paging {
  page: number;
  /** undefined: the server's default (20) */
  perPage?: number;
  all: boolean;
}

export type FetchPage<T> = (page: number, perPage: number | undefined) => Promise<ListPage<T>>;

/**
 * Prints one page, or with `all` every page from the first, each written as it arrives
 * (memory stays flat however long the list). The walk stops at an empty page or when
 * `current_page * per_page >= total`, and early if the reader of stdout went away.
 */
export async function printList<T>(
  fetchPage: FetchPage<T>,
  paging: Paging,
  view: ResourceView<T>,
  output: Output,
): Promise<void> {
  const writer = new ListWriter(view, output);
  const plural = view.noun[1];
  if (!paging.all) {
    const res = await output.spin(`Loading ${plural}…`, fetchPage(paging.page, paging.perPage));
    await writer.page(res.data);
    await writer.end();
    output.note(pageFooter(view, res.meta));
    return;
  }
  const perPage = paging.perPage ?? ALL_PER_PAGE;
  let pages = '';
  for (let page = 1; ; page++) {
    const res = await output.spin(`Loading ${plural} (page ${page}${pages})…`, fetchPage(page, perPage));
    const { current_page, per_page, total } = res.meta;
    if (current_page !== page) {
      throw new CliError(`the server answered page ${current_page} when asked for page ${page}; stopping`);
    }
    await writer.page(res.data);
    if (output.stdout.closed) return;
    if (isLastPage(current_page, res.data.length, res.meta)) break;
    pages = ` of ${Math.ceil(total / Math.max(1, per_page))}`;
  }
  await writer.end();
  output.note(countOf(view, writer.count));
}
