import type { Storage } from '../storage/storage.js';
import type { WriteBatcher } from './write-batch.js';

/** What the server's routes depend on, injected so tests can swap the clock. */
export interface ServerDeps {
  storage: Storage;
  now: () => Date;
  /** Runs resource writes in group-committed transactions. */
  writes: WriteBatcher;
  /** Counters tests read (e.g. how many token requests a CLI run made). */
  stats: { tokenRequests: number };
}
