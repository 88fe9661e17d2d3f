import type { Storage } from '../storage/storage.js';

/** What the server's routes depend on, injected so tests can swap the clock. */
export interface ServerDeps {
  storage: Storage;
  now: () => Date;
  /** Counters tests read (e.g. how many token requests a CLI run made). */
  stats: { tokenRequests: number };
}
