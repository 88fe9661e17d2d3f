import { PgStorage } from '../storage/postgres/pg-storage.js';
import { PgSnapshotIo } from '../storage/postgres/snapshot-io.js';
import { SqliteSnapshotIo } from '../storage/sqlite/snapshot-io.js';
import { SqliteStore } from '../storage/sqlite/sqlite-store.js';
import type { DirectoryStore } from '../storage/store.js';
import type { SnapshotBackend } from '../storage/snapshot-backend.js';

/** The snapshot side of an open store, whichever backend it is. */
export function snapshotBackend(store: DirectoryStore): SnapshotBackend {
  if (store instanceof SqliteStore) return new SqliteSnapshotIo(store.storage, store.location);
  if (store instanceof PgStorage) return new PgSnapshotIo(store.pool, store.location);
  throw new Error(`snapshots are not supported on the ${store.backend} backend`);
}
