import type { DirectoryStore } from '../storage/store.js';

/** What the server's routes depend on, injected so tests can swap the clock. */
export interface ServerDeps {
  /** The database, SQLite or PostgreSQL (src/storage/store.ts). */
  store: DirectoryStore;
  now: () => Date;
  /** Counters tests read (e.g. how many token requests a CLI run made). */
  stats: { tokenRequests: number };
}
