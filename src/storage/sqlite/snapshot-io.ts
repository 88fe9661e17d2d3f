import type Database from 'better-sqlite3';
import type { ChamberType, Event, Member } from '../../contract/index.js';
import { LoadConflict, type LoadRow, type SnapshotBackend, type SnapshotLoader, type SnapshotTables, type Stored } from '../../snapshot/io.js';
import type { ChamberRow } from '../rows.js';
import { emailKey } from '../store.js';
import type { Storage } from './storage.js';

/** Rows per read when exporting (keyset pages on the primary key). */
const PAGE = 5000;

/**
 * Snapshots on SQLite. Export reads keyset pages inside one read transaction (a consistent
 * view, even while a server writes). Import runs in one write transaction with bulk
 * settings: foreign keys off for the load (the importer checks every reference itself, and
 * a file's chambers are in id order, not HQ first), the lists' secondary indexes and the
 * count triggers dropped and rebuilt at the end, the totals then recomputed. The primary
 * keys and the unique e-mail index stay, so a collision is caught on the row that causes it.
 */
export class SqliteSnapshotIo implements SnapshotBackend {
  constructor(
    private readonly storage: Storage,
    readonly location: string,
  ) {}

  private get db(): Database.Database {
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
    db.pragma('cache_size = -262144'); // KiB: 256 MiB, the unique indexes' pages stay cached
    db.exec('BEGIN IMMEDIATE');
    let committed = false;
    try {
      if (opts.onlyIfUnused && !this.storage.isUnused()) return undefined;
      const schema = db
        .prepare(
          `SELECT type, name, sql FROM sqlite_master WHERE tbl_name IN ('chambers', 'members', 'events') AND sql IS NOT NULL
           AND ((type = 'index' AND sql NOT LIKE 'CREATE UNIQUE%') OR (type = 'trigger' AND name LIKE '%\\_count\\_%' ESCAPE '\\'))`,
        )
        .all() as { type: string; name: string; sql: string }[];
      for (const { type, name } of schema) db.exec(`DROP ${type === 'index' ? 'INDEX' : 'TRIGGER'} "${name}"`);
      if (opts.replace) {
        for (const table of ['events', 'members', 'chambers', 'local_changes', 'sync_state', 'sync_done']) db.exec(`DELETE FROM ${table}`);
      }
      const hadChambers = db.prepare('SELECT 1 FROM chambers LIMIT 1').get() !== undefined;
      const result = await work(new SqliteLoader(db, hadChambers));
      for (const { sql } of schema) db.exec(sql);
      db.exec(`
        DELETE FROM chamber_counts; INSERT INTO chamber_counts (type, status, n) SELECT type, status, count(*) FROM chambers GROUP BY type, status;
        DELETE FROM member_counts; INSERT INTO member_counts (chamber_id, status, n) SELECT chamber_id, status, count(*) FROM members GROUP BY chamber_id, status;
        DELETE FROM event_counts; INSERT INTO event_counts (chamber_id, status, n) SELECT chamber_id, status, count(*) FROM events GROUP BY chamber_id, status;
      `);
      const broken = db.pragma('foreign_key_check') as unknown[];
      if (broken.length > 0) throw new Error(`snapshot import: ${broken.length} broken references left (a bug: the importer checks them)`);
      db.exec('COMMIT');
      committed = true;
      return result;
    } finally {
      if (!committed && db.inTransaction) db.exec('ROLLBACK');
      db.pragma(`cache_size = ${cacheSize}`);
      db.pragma(`synchronous = ${synchronous}`);
      db.pragma(`foreign_keys = ${foreignKeys}`);
      if (committed && !db.memory) db.pragma('wal_checkpoint(TRUNCATE)');
    }
  }
}

class SqliteLoader implements SnapshotLoader {
  private readonly chamber: Database.Statement;
  private readonly member: Database.Statement;
  private readonly event: Database.Statement;
  private readonly type: Database.Statement;

  constructor(
    db: Database.Database,
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
      guard(line, () => this.chamber.run(c.id, c.name, c.type, c.hq_id, c.status, c.street, c.city, c.postal_code, c.country, c.created_at, raw));
    }
  }

  async insertMembers(rows: LoadRow<Member>[]): Promise<void> {
    for (const { line, row: m, raw } of rows) {
      guard(line, () => this.member.run(m.id, m.chamber_id, m.name, m.email, emailKey(m.email), m.phone, m.membership_type, m.status, m.joined_at, raw));
    }
  }

  async insertEvents(rows: LoadRow<Event>[]): Promise<void> {
    for (const { line, row: e, raw } of rows) {
      guard(line, () => this.event.run(e.id, e.chamber_id, e.title, e.status, e.starts_at, e.ends_at, e.location, raw));
    }
  }
}

/** Turns the primary key's and the e-mail index's constraint errors into a LoadConflict on `line`. */
function guard(line: number, insert: () => unknown): void {
  try {
    insert();
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw new LoadConflict(line, 'id');
    if (code === 'SQLITE_CONSTRAINT_UNIQUE') throw new LoadConflict(line, (err as Error).message.includes('email_key') ? 'email' : 'id');
    throw err;
  }
}
