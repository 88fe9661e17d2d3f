import type { ChamberType, Event, Member } from '../../contract/index.js';
import { LoadConflict, type LoadRow, type SnapshotBackend, type SnapshotLoader, type SnapshotTables, type Stored } from '../snapshot-backend.js';
import type { ChamberRow } from '../rows.js';
import type { Database, Statement } from './database.js';
import { REBUILD_CACHE_KIB } from './deferred-indexes.js';
import { emailKey } from '../store.js';
import type { Storage } from './storage.js';

/** Rows per read when exporting (keyset pages on the primary key). */
const PAGE = 5000;
/** SQLite's page cache while an import inserts its rows (KiB). */
const LOAD_CACHE_KIB = REBUILD_CACHE_KIB;

/**
 * Snapshots on SQLite. Export reads keyset pages inside one read transaction (a consistent
 * view, even while a server writes). Import runs in one write transaction with bulk
 * settings: foreign keys off for the load (the importer checks every reference itself, and
 * a file's chambers are in id order, not HQ first), the secondary indexes and the count
 * triggers dropped and rebuilt at the end, the totals then recomputed. The primary keys
 * stay, so a taken id is caught on its row; a second member with an address in a chamber
 * is found when the unique index is rebuilt, and then named.
 */
export class SqliteSnapshotIo implements SnapshotBackend {
  constructor(
    private readonly storage: Storage,
    readonly location: string,
  ) {}

  private get db(): Database {
    return this.storage.db;
  }

  async read<T>(work: (tables: SnapshotTables) => Promise<T>): Promise<T> {
    const db = this.db;
    db.exec('BEGIN');
    try {
      const pages = <R>(table: string, columns: string) =>
        async function* (): AsyncIterable<R[]> {
          const first = db.prepare(`SELECT ${columns} FROM ${table} ORDER BY id LIMIT ${PAGE}`);
          const after = db.prepare(`SELECT ${columns} FROM ${table} WHERE id > ? ORDER BY id LIMIT ${PAGE}`);
          let rows = first.all() as (R & { id: string })[];
          while (rows.length > 0) {
            yield rows;
            if (rows.length < PAGE) break;
            rows = after.all(rows[rows.length - 1]!.id) as (R & { id: string })[];
          }
        };
      return await work({
        chambers: pages<Stored<ChamberRow>>('chambers', 'id, name, type, hq_id, status, street, city, postal_code, country, created_at, raw'),
        members: pages<Stored<Member>>('members', 'id, chamber_id, name, email, phone, membership_type, status, joined_at, raw'),
        events: pages<Stored<Event>>('events', 'id, chamber_id, title, status, starts_at, ends_at, location, raw'),
      });
    } finally {
      if (db.inTransaction) db.exec('COMMIT');
    }
  }

  async load<T>(opts: { replace: boolean; onlyIfUnused?: boolean }, work: (loader: SnapshotLoader) => Promise<T>): Promise<T | undefined> {
    const db = this.db;
    const foreignKeys = db.pragma('foreign_keys', { simple: true }) as number;
    const synchronous = db.pragma('synchronous', { simple: true }) as number;
    const cacheSize = db.pragma('cache_size', { simple: true }) as number;
    db.pragma('foreign_keys = OFF'); // only outside a transaction does this take effect
    db.pragma('synchronous = OFF'); // the commit is still atomic; a crash mid-load leaves the old database
    db.pragma(`cache_size = ${-LOAD_CACHE_KIB}`);
    const tempStore = db.pragma('temp_store', { simple: true }) as number;
    db.pragma('temp_store = FILE'); // the index rebuild sorts millions of keys: in temp files
    db.exec('BEGIN IMMEDIATE');
    let committed = false;
    try {
      if (opts.onlyIfUnused && !this.storage.isUnused()) return undefined;
      // Every index but the primary keys' (sql IS NULL), and the count triggers: rebuilt
      // once at the end, several times faster than kept up row by row (as the demo seed does).
      const schema = db
        .prepare(
          `SELECT type, name, sql FROM sqlite_master WHERE tbl_name IN ('chambers', 'members', 'events') AND sql IS NOT NULL
           AND (type = 'index' OR (type = 'trigger' AND name LIKE '%\\_count\\_%' ESCAPE '\\'))`,
        )
        .all() as { type: string; name: string; sql: string }[];
      for (const { type, name } of schema) db.exec(`DROP ${type === 'index' ? 'INDEX' : 'TRIGGER'} "${name}"`);
      if (opts.replace) {
        for (const table of ['events', 'members', 'chambers', 'local_changes', 'sync_state', 'sync_done']) db.exec(`DELETE FROM ${table}`);
      }
      const hadChambers = db.prepare('SELECT 1 FROM chambers LIMIT 1').get() !== undefined;
      const loader = new SqliteLoader(db, hadChambers);
      const result = await work(loader);
      db.pragma(`cache_size = ${-REBUILD_CACHE_KIB}`);
      for (const { sql } of schema) {
        try {
          db.exec(sql);
        } catch (err) {
          // The one-member-per-address index: name the member that breaks it.
          if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' && /members/.test(sql)) throw loader.emailConflict();
          throw err;
        }
      }
      db.exec(`
        DELETE FROM chamber_counts; INSERT INTO chamber_counts (type, status, n) SELECT type, status, count(*) FROM chambers GROUP BY type, status;
        DELETE FROM member_counts; INSERT INTO member_counts (chamber_id, status, n) SELECT chamber_id, status, count(*) FROM members GROUP BY chamber_id, status;
        DELETE FROM event_counts; INSERT INTO event_counts (chamber_id, status, n) SELECT chamber_id, status, count(*) FROM events GROUP BY chamber_id, status;
      `);
      db.exec('COMMIT');
      committed = true;
      return result;
    } finally {
      if (!committed && db.inTransaction) db.exec('ROLLBACK');
      db.pragma(`cache_size = ${cacheSize}`);
      db.pragma(`temp_store = ${tempStore}`);
      db.pragma(`synchronous = ${synchronous}`);
      db.pragma(`foreign_keys = ${foreignKeys}`);
      if (committed && !db.memory) db.pragma('wal_checkpoint(TRUNCATE)'); // the load's WAL is as large as the data
    }
  }
}

class SqliteLoader implements SnapshotLoader {
  private readonly chamber: Statement;
  private readonly member: Statement;
  private readonly event: Statement;
  private readonly type: Statement;
  /** Members with a larger rowid are this load's; the first of them came from this line. */
  private readonly membersBefore: number;
  private firstMemberLine?: number;

  constructor(
    private readonly db: Database,
    readonly hadChambers: boolean,
  ) {
    this.chamber = db.prepare(
      `INSERT INTO chambers (id, name, type, hq_id, status, street, city, postal_code, country, created_at, raw)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.member = db.prepare(
      `INSERT INTO members (id, chamber_id, name, email, email_key, phone, membership_type, status, joined_at, raw)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.event = db.prepare(
      `INSERT INTO events (id, chamber_id, title, status, starts_at, ends_at, location, raw) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.type = db.prepare('SELECT type FROM chambers WHERE id = ?').pluck();
    this.membersBefore = db.prepare('SELECT coalesce(max(rowid), 0) FROM members').pluck().get() as number;
  }

  async chamberTypes(ids: string[]): Promise<Map<string, ChamberType>> {
    const out = new Map<string, ChamberType>();
    for (const id of ids) {
      const t = this.type.get(id) as ChamberType | undefined;
      if (t) out.set(id, t);
    }
    return out;
  }

  async insertChambers(rows: LoadRow<ChamberRow>[]): Promise<void> {
    for (const { line, row: c, raw } of rows) {
      guard(line, 'chamber', c, () => this.chamber.run(c.id, c.name, c.type, c.hq_id, c.status, c.street, c.city, c.postal_code, c.country, c.created_at, raw));
    }
  }

  async insertMembers(rows: LoadRow<Member>[]): Promise<void> {
    this.firstMemberLine ??= rows[0]?.line;
    for (const { line, row: m, raw } of rows) {
      guard(line, 'member', m, () => this.member.run(m.id, m.chamber_id, m.name, m.email, emailKey(m.email), m.phone, m.membership_type, m.status, m.joined_at, raw));
    }
  }

  async insertEvents(rows: LoadRow<Event>[]): Promise<void> {
    for (const { line, row: e, raw } of rows) {
      guard(line, 'event', e, () => this.event.run(e.id, e.chamber_id, e.title, e.status, e.starts_at, e.ends_at, e.location, raw));
    }
  }

  /**
   * The loaded member (the first in id order) whose chamber already had its address, in the
   * database or earlier in the file. Only after the unique index failed to build, inside the
   * transaction that is then rolled back. The file's members are consecutive lines in id
   * order, so its line is the first member's plus the loaded members before it.
   */
  emailConflict(): LoadConflict | Error {
    this.db.exec('CREATE INDEX snapshot_email_check ON members (chamber_id, email_key)');
    const m = this.db
      .prepare(
        `SELECT m.id, m.chamber_id, m.email FROM members m WHERE m.rowid > ? AND EXISTS (
           SELECT 1 FROM members o WHERE o.chamber_id = m.chamber_id AND o.email_key = m.email_key
           AND o.rowid <> m.rowid AND (o.rowid <= ? OR o.id < m.id))
         ORDER BY m.id LIMIT 1`,
      )
      .get(this.membersBefore, this.membersBefore) as { id: string; chamber_id: string; email: string } | undefined;
    if (!m || this.firstMemberLine === undefined) return new Error('snapshot import: the e-mail index could not be rebuilt');
    const before = this.db.prepare('SELECT count(*) FROM members WHERE rowid > ? AND id < ?').pluck().get(this.membersBefore, m.id) as number;
    return new LoadConflict(this.firstMemberLine + before, 'member', 'email', m);
  }
}

/** Turns a primary key's constraint error into a LoadConflict on `line`. */
function guard(line: number, kind: 'chamber' | 'member' | 'event', row: { id: string }, insert: () => unknown): void {
  try {
    insert();
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE') throw new LoadConflict(line, kind, 'id', row);
    throw err;
  }
}
