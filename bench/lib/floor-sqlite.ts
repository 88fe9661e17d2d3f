import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { PageBoundaries } from '../../src/storage/page-boundaries.js';
import { CHAMBER_JSON, EVENT_JSON, MEMBER_COLUMNS, MEMBER_JSON } from '../../src/storage/rows.js';
import { nodeSqlite } from '../../src/storage/sqlite/node-sqlite.js';
import type { FloorPage, FloorStore, ListQuery, NewMember } from './floor-store.js';

// The same-work floor on SQLite (bench/same-work-floor.ts): the database work `serve` does for
// each list page and each POST member, statement for statement, on node:sqlite directly and
// with nothing around it. What is the same as src/storage/sqlite/storage.ts, and why:
// - the connection: the same pragmas (WAL, a 64 MiB page cache, a 1 GiB memory map, the
//   statement journal in memory) and the WAL checkpointed by a timer once a second;
// - a list: its statements in one read transaction (BEGIN ... COMMIT), the total from the
//   *_counts table (or count(*) for an events window), the page with the JSON built in
//   SQLite by the storage's own column expressions (rows.ts), the page size written into
//   the statement, and the seek from the nearest earlier page this connection read, with
//   the same boundaries (src/storage/page-boundaries.ts) forgotten on the same
//   data_version check;
// - POST member: the writes of one event-loop turn in one BEGIN IMMEDIATE transaction (the
//   storage's group commit, write-batch.ts), each in its savepoint, with the same
//   statements: is this a copy made by `sync pull`, does the chamber exist, the INSERT, the
//   audit row.
// What it leaves out is what the floor is measured against: the wrappers of storage.ts and
// database.ts (Statement, the error codes, the store's proxy), rows read as objects.

const CHECKPOINT_EVERY_MS = 1000; // as server/start.ts's store.checkpointEvery(1000)

export class SqliteFloor implements FloorStore {
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();
  readonly #boundaries: PageBoundaries;
  #queue: { member: NewMember; resolve: (r: Awaited<ReturnType<FloorStore['addMember']>>) => void; reject: (e: unknown) => void }[] = [];

  constructor(path: string) {
    const { DatabaseSync } = nodeSqlite();
    this.#db = new DatabaseSync(path);
    for (const pragma of [
      'journal_mode = WAL',
      'synchronous = NORMAL',
      'foreign_keys = ON',
      'busy_timeout = 5000',
      `mmap_size = ${1024 * 1024 * 1024}`,
      `cache_size = ${-64 * 1024}`,
      'temp_store = MEMORY',
      'wal_autocheckpoint = 0',
    ]) {
      this.#db.exec(`PRAGMA ${pragma}`);
    }
    setInterval(() => this.#stmt('PRAGMA wal_checkpoint(PASSIVE)').get(), CHECKPOINT_EVERY_MS).unref();
    this.#boundaries = new PageBoundaries(() => this.#stmt("SELECT (SELECT data_version FROM pragma_data_version) || ':' || total_changes()").get()![0] as string);
  }

  /** Each statement prepared once, reading rows as arrays. */
  #stmt(sql: string): StatementSync {
    let s = this.#statements.get(sql);
    if (!s) {
      s = this.#db.prepare(sql);
      s.setReturnArrays(true);
      this.#statements.set(sql, s);
    }
    return s;
  }

  #inReadTransaction<T>(read: () => T): T {
    this.#stmt('BEGIN').run();
    try {
      const result = read();
      this.#stmt('COMMIT').run();
      return result;
    } catch (err) {
      if (this.#db.isTransaction) this.#stmt('ROLLBACK').run();
      throw err;
    }
  }

  #sumCounts(table: string, where: string[], args: SQLInputValue[]): number {
    return this.#stmt(`SELECT coalesce(sum(n), 0) AS n FROM ${table}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`).get(...args)![0] as number;
  }

  async chambers(q: ListQuery): Promise<FloorPage> {
    return this.#inReadTransaction(() => {
      const where: string[] = [];
      const args: SQLInputValue[] = [];
      if (q.type) (where.push('type = ?'), args.push(q.type));
      if (q.status) (where.push('status = ?'), args.push(q.status));
      const total = this.#sumCounts('chamber_counts', where, args);
      return { total, docs: this.#sortedPage('chambers', CHAMBER_JSON, where, args, q.sort ?? { field: 'created_at', desc: false }, q, total) };
    });
  }

  async members(chamberId: string, q: ListQuery): Promise<FloorPage> {
    return this.#inReadTransaction(() => {
      const where = ['chamber_id = ?'];
      const args: SQLInputValue[] = [chamberId];
      if (q.status) (where.push('status = ?'), args.push(q.status));
      const total = this.#sumCounts('member_counts', where, args);
      return { total, docs: this.#sortedPage('members', MEMBER_JSON, where, args, q.sort ?? { field: 'joined_at', desc: false }, q, total) };
    });
  }

  async events(chamberId: string, q: ListQuery): Promise<FloorPage> {
    const now = new Date().toISOString();
    return this.#inReadTransaction(() => {
      const where = ['chamber_id = ?'];
      const args: SQLInputValue[] = [chamberId];
      if (q.status === 'canceled') where.push("status = 'canceled'");
      else if (q.status) {
        where.push("(status = 'canceled') = 0", q.status === 'upcoming' ? 'ends_at >= ?' : 'ends_at < ?');
        args.push(now);
      }
      if (q.from) (where.push('ends_at >= ?'), args.push(q.from));
      if (q.to) (where.push('starts_at <= ?'), args.push(q.to));
      const total =
        q.from || q.to || (q.status && q.status !== 'canceled')
          ? (this.#stmt(`SELECT count(*) AS n FROM events WHERE ${where.join(' AND ')}`).get(...args)![0] as number)
          : this.#sumCounts('event_counts', q.status ? ['chamber_id = ?', "status = 'canceled'"] : ['chamber_id = ?'], [chamberId]);
      const offset = (q.page - 1) * q.perPage;
      if (offset >= total) return { total, docs: [] };
      const sql = `SELECT ${EVENT_JSON} FROM events WHERE ${where.join(' AND ')} ORDER BY starts_at, id LIMIT ${q.perPage} OFFSET ?`;
      return { total, docs: this.#stmt(sql).all(now, now, ...args, offset).map((r) => (r as unknown as string[])[0]!) };
    });
  }

  /** storage.ts's sortedPage: a seek from the nearest earlier page read, else OFFSET. */
  #sortedPage(table: string, json: string, where: string[], args: SQLInputValue[], sort: { field: string; desc: boolean }, q: ListQuery, total: number): string[] {
    const offset = (q.page - 1) * q.perPage;
    if (offset >= total) return [];
    const dir = sort.desc ? ' DESC' : '';
    const order = `${sort.field === 'name' ? 'name COLLATE NOCASE' : sort.field}${dir}, id${dir}`;
    const column = sort.field;
    const collate = column === 'name' ? ' COLLATE NOCASE' : '';
    const filters = where.length ? where.join(' AND ') : '1';
    const list = `${table}|${filters}|${JSON.stringify(args)}|${order}|${q.perPage}`;
    this.#boundaries.check();
    const from = this.#boundaries.before(list, q.page, q.perPage);
    let rows: [string, SQLInputValue, string][];
    if (from) {
      const [after, atOrAfter] = sort.desc ? ['<', '<='] : ['>', '>='];
      const sql = `SELECT ${json}, ${column}, id FROM ${table} WHERE ${filters} AND ${column} ${atOrAfter} ?${collate}
        AND (${column} ${after} ?${collate} OR id ${after} ?) ORDER BY ${order} LIMIT ${q.perPage} OFFSET ?`;
      const key = from.boundary.key as SQLInputValue;
      rows = this.#stmt(sql).all(...args, key, key, from.boundary.id, from.skip) as unknown as typeof rows;
    } else {
      const sql = `SELECT ${json}, ${column}, id FROM ${table} WHERE ${filters} ORDER BY ${order} LIMIT ${q.perPage} OFFSET ?`;
      rows = this.#stmt(sql).all(...args, offset) as unknown as typeof rows;
    }
    const last = rows[rows.length - 1];
    if (last && rows.length === q.perPage) this.#boundaries.set(list, q.page, { key: last[1], id: last[2] });
    return rows.map((r) => r[0]);
  }

  async chamberExists(id: string): Promise<boolean> {
    return this.#stmt('SELECT type FROM chambers WHERE id = ?').get(id) !== undefined;
  }

  /** Group commit, as the storage's WriteBatcher: the adds of one event-loop turn in one transaction. */
  addMember(member: NewMember): ReturnType<FloorStore['addMember']> {
    return new Promise((resolve, reject) => {
      if (this.#queue.push({ member, resolve, reject }) === 1) setImmediate(() => this.#flush());
    });
  }

  #flush(): void {
    const jobs = this.#queue;
    this.#queue = [];
    const outcomes: (Awaited<ReturnType<FloorStore['addMember']>> | Error)[] = [];
    try {
      this.#stmt('BEGIN IMMEDIATE').run();
      for (const { member } of jobs) {
        try {
          outcomes.push(this.#add(member));
        } catch (err) {
          outcomes.push(err as Error);
        }
      }
      this.#stmt('COMMIT').run();
    } catch (err) {
      if (this.#db.isTransaction) this.#stmt('ROLLBACK').run();
      for (const job of jobs) job.reject(err);
      return;
    }
    jobs.forEach((job, i) => {
      const o = outcomes[i]!;
      if (o instanceof Error) job.reject(o);
      else job.resolve(o);
    });
  }

  #add(m: NewMember): Awaited<ReturnType<FloorStore['addMember']>> {
    const copy = this.#stmt("SELECT 1 FROM sync_state WHERE key = 'source'").get() !== undefined;
    this.#stmt('SAVEPOINT chamberctl_nested').run();
    try {
      if (this.#stmt('SELECT type FROM chambers WHERE id = ?').get(m.chamber_id) === undefined) {
        this.#stmt('RELEASE chamberctl_nested').run();
        return 'no-chamber';
      }
      const r = this.#stmt(
        `INSERT INTO members (${MEMBER_COLUMNS}, email_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (chamber_id, email_key) DO NOTHING`,
      ).run(m.id, m.chamber_id, m.name, m.email, m.phone, m.membership_type, m.status, m.joined_at, m.email.toLowerCase());
      if (r.changes !== 1) {
        this.#stmt('RELEASE chamberctl_nested').run();
        return 'duplicate';
      }
      if (copy) throw new Error('the floor does not record local changes: the bench database is no copy');
      this.#stmt('INSERT INTO audit (at, action, client_id, target, request_id, address) VALUES (?, ?, ?, ?, ?, ?)').run(
        m.joined_at,
        'member.add',
        m.audit.clientId,
        m.id,
        m.audit.requestId,
        m.audit.address,
      );
      this.#stmt('RELEASE chamberctl_nested').run();
      return 'added';
    } catch (err) {
      if (this.#db.isTransaction) {
        this.#stmt('ROLLBACK TO chamberctl_nested').run();
        this.#stmt('RELEASE chamberctl_nested').run();
      }
      throw err;
    }
  }
}
