/**
 * Whether a list page is the last one of a walk through every page: it came back empty, or
 * the pages up to it hold `total` items. `per_page` is the server's answer, not what was
 * asked: a server may give fewer per page than asked.
 */
export function isLastPage(page: number, itemsOnPage: number, meta: { per_page: number; total: number }): boolean {
  return itemsOnPage === 0 || page * Math.max(1, meta.per_page) >= meta.total;
}
