import type { DirectoryStore } from '../storage/store.js';
import type { TokenFailure } from './metrics.js';

/** What the server's routes depend on, injected so tests can swap the clock. */
export interface ServerDeps {
  /** The database, SQLite or PostgreSQL (src/storage/store.ts). */
  store: DirectoryStore;
  now: () => Date;
  /** Counters tests read (e.g. how many token requests a CLI run made). */
  stats: { tokenRequests: number };
  /** Told of each refused token request (serve --metrics counts them). */
  onTokenFailure?: (reason: TokenFailure) => void;
}
