import type { Database } from './database.js';

// A first `sync pull` into an empty copy loads it in bulk, the way `snapshot import` does:
// the list indexes and count triggers of chambers, members and events are dropped when the
// pull starts and built once at its end, which costs a fraction of keeping them up row by
// row (docs/performance.md, "sync pull"). What a pull itself reads stays: the primary keys,
// the one-member-per-address index (the pull's address rule, and a chamber's members by
// chamber_id), and events_by_start (a finished chamber's stale events are found by
// chamber_id).
//
// The dropped definitions are kept in sync_state, in the transaction that drops them, so a
// database is never left without them: any opening of it but the pull's own (serve, `sync
// status`, snapshot export, a later command) builds them again first, and recounts the
// totals the triggers would have kept.

const KEY = 'deferred_schema';
/**
 * SQLite's page cache while indexes are built (KiB): also the size of the sorter's runs.
 * Small runs sort faster than one large one (measured in docs/performance.md, "Writing
 * the copy for less" and "snapshot import"), and the RSS stays low.
 */
export const REBUILD_CACHE_KIB = 8 * 1024;

const DEFERRABLE = `
  SELECT type, name, sql FROM sqlite_master
  WHERE sql IS NOT NULL AND tbl_name IN ('chambers', 'members', 'events')
    AND ((type = 'index' AND sql NOT LIKE 'CREATE UNIQUE %' AND name <> 'events_by_start')
      OR (type = 'trigger' AND name LIKE '%\\_count\\_%' ESCAPE '\\'))
  ORDER BY type, name`;

/** Drops the list indexes and count triggers of chambers, members and events, remembering them. Run inside a transaction. */
export function deferListIndexes(db: Database): void {
  if (db.prepare('SELECT 1 FROM sync_state WHERE key = ?').get(KEY)) return;
  const schema = db.prepare(DEFERRABLE).all() as { type: string; name: string; sql: string }[];
  if (!schema.length) return;
  db.prepare('INSERT INTO sync_state (key, value) VALUES (?, ?)').run(KEY, JSON.stringify(schema.map((s) => s.sql)));
  for (const { type, name } of schema) db.exec(`DROP ${type === 'index' ? 'INDEX' : 'TRIGGER'} "${name}"`);
}

/** Whether a bulk pull's indexes are still to be built. */
export function hasDeferredIndexes(db: Database): boolean {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sync_state'").get();
  return table !== undefined && db.prepare('SELECT 1 FROM sync_state WHERE key = ?').get(KEY) !== undefined;
}

/**
 * Builds what deferListIndexes dropped and recounts the totals, in one transaction; a no-op
 * when nothing is deferred. The sorts of the index builds go to temp files, not memory.
 */
export function restoreDeferredIndexes(db: Database): void {
  if (!hasDeferredIndexes(db)) return;
  const tempStore = db.pragma('temp_store', { simple: true }) as number;
  const cacheSize = db.pragma('cache_size', { simple: true }) as number;
  db.pragma('temp_store = FILE');
  // SQLite sorts in memory up to the page cache's size before it spills to files: with a
  // pull's 32 MiB cache the rebuild of a million members' indexes took 81 MiB more of the
  // process's memory, with 8 MiB 39 MiB more, in the same time
  db.pragma(`cache_size = ${-REBUILD_CACHE_KIB}`);
  try {
    db.transaction(() => {
      const value = db.prepare('SELECT value FROM sync_state WHERE key = ?').pluck().get(KEY) as string | undefined;
      if (value === undefined) return; // another connection built them meanwhile
      for (const sql of JSON.parse(value) as string[]) db.exec(sql);
      db.exec(`
        DELETE FROM chamber_counts; INSERT INTO chamber_counts (type, status, n) SELECT type, status, count(*) FROM chambers GROUP BY type, status;
        DELETE FROM member_counts; INSERT INTO member_counts (chamber_id, status, n) SELECT chamber_id, status, count(*) FROM members GROUP BY chamber_id, status;
        DELETE FROM event_counts; INSERT INTO event_counts (chamber_id, status, n) SELECT chamber_id, status, count(*) FROM events GROUP BY chamber_id, status;
      `);
      db.prepare('DELETE FROM sync_state WHERE key = ?').run(KEY);
    }, 'immediate');
  } finally {
    db.pragma(`cache_size = ${cacheSize}`);
    db.pragma(`temp_store = ${tempStore}`);
  }
}
