// The last row of each page read, per list (filter, sort and page size), so that the next
// page is read by seeking from it in the list's index instead of skipping every row before
// it with OFFSET: page 100 costs what page 2 does (docs/performance.md, "deep pages"). Not a
// cache of answers: the rows are read each time; only where to start is remembered.
// On SQLite any write to the database, through this connection or another, forgets
// everything (`version`). On PostgreSQL, shared by instances, each boundary carries a
// stamp of the list it was read from, and the storage checks it in the seek's statement.

/** Where a page ended: its last row's sort value and id. */
export interface Boundary {
  key: unknown;
  id: string;
  /** What the list was when this page was read (PostgreSQL: list_generation and total). */
  stamp?: string;
}

/** Lists remembered at most; past it, all are forgotten (a bound on memory, not an LRU). */
const MAX_LISTS = 10_000;

export class PageBoundaries {
  #version: string | undefined;
  readonly #lists = new Map<string, Map<number, Boundary>>();

  /** `version` changes with every write to the database (SQLite: data_version and total_changes). */
  constructor(private readonly version?: () => string) {}

  /** Forgets everything when the database changed since the last call; once per list request. */
  check(): void {
    if (!this.version) return;
    const v = this.version();
    if (v !== this.#version) {
      this.#lists.clear();
      this.#version = v;
    }
  }

  /**
   * The boundary of the nearest page before `page` that was read, and how many rows lie
   * between it and `page`'s first row: the page is read by seeking from the boundary and
   * skipping those (none when page-1 was read), which costs little however deep the page.
   */
  before(list: string, page: number, perPage: number): { boundary: Boundary; skip: number } | undefined {
    const pages = this.#lists.get(list);
    if (!pages || page <= 1) return undefined;
    let at = 0;
    const exact = pages.get(page - 1);
    if (exact) at = page - 1;
    else for (const k of pages.keys()) if (k < page && k > at) at = k;
    return at ? { boundary: pages.get(at)!, skip: (page - 1 - at) * perPage } : undefined;
  }

  set(list: string, page: number, boundary: Boundary): void {
    let pages = this.#lists.get(list);
    if (!pages) {
      if (this.#lists.size >= MAX_LISTS) this.#lists.clear();
      this.#lists.set(list, (pages = new Map()));
    }
    pages.set(page, boundary);
  }
}
