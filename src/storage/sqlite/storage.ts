import { randomUUID } from 'node:crypto';
import type {
  Chamber,
  ChamberCreate,
  ChamberStatus,
  ChamberType,
  Event,
  Member,
  MemberCreate,
  MemberStatus,
  Sort,
} from '../../contract/index.js';
import { newId } from '../ids.js';
import { restoreDeferredIndexes } from './deferred-indexes.js';
import { migrate } from './migrations.js';
import { openDatabase, type Database, type Statement } from './database.js';
import { PageBoundaries } from '../page-boundaries.js';
import {
  emailKey,
  IDEMPOTENCY_TTL_MS,
  type ChamberFilter,
  type EventFilter,
  type IdempotentWrite,
  type MemberFilter,
  type Page,
  type Paging,
  type StoredAnswer,
  type AuditAction,
  type AuditContext,
  type AuditFilter,
  type ChamberWrite,
  type MemberWrite,
  type AuditRecord,
  type ClientAuth,
  type ClientRecord,
  type Scope,
  type TokenRecord,
  type ClientAuthRow,
  AUDIT_COLUMNS,
  CLIENT_AUTH_COLUMNS,
  CLIENT_USE_RESOLUTION_MS,
  clientAuthOf,
  graceText,
} from '../store.js';
import {
  CHAMBER_COLUMNS,
  CHAMBER_JSON,
  chamberValues,
  EVENT_COLUMNS,
  eventValues,
  EVENT_JSON,
  MEMBER_COLUMNS,
  MEMBER_JSON,
  memberValues,
  type JsonText,
  newChamberRow,
  newMember,
  toChamber,
} from '../rows.js';

export { parseJsonText, type JsonText } from '../rows.js';

/**
 * The SQLite database, synchronously (node:sqlite, through database.ts): each call is a
 * short, indexed statement. The server reaches it through SqliteStore (sqlite-store.ts), the
 * SQLite side of the storage interface; the demo seed, snapshots and tests use it directly.
 */
export class Storage {
  readonly db: Database;
  private readonly statements = new Map<string, Statement>();

  /**
   * `cacheMiB` bounds SQLite's memory: the page cache and the memory map of the file each
   * get that many MiB. Without it: a 64 MiB page cache and a map of up to 1 GiB, so that
   * a list request on a large database costs no read() calls, which otherwise dominate
   * (bench:server); the mapped pages count in the process's RSS (docs/operations/serve.md#memory).
   * `mmapMiB` sets the map alone (0: none).
   */
  constructor(path: string, opts: { cacheMiB?: number; mmapMiB?: number; keepDeferredIndexes?: boolean } = {}) {
    this.db = openDatabase(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
    const cacheMiB = opts.cacheMiB ?? 64;
    const mmapMiB = opts.mmapMiB ?? opts.cacheMiB ?? 1024;
    this.db.pragma(`mmap_size = ${mmapMiB * 1024 * 1024}`);
    this.db.pragma(`cache_size = ${-cacheMiB * 1024}`);
    // A first pull that was stopped left its list indexes to build (deferred-indexes.ts):
    // whoever opens the copy next builds them, unless it is a pull that goes on with it.
    if (!opts.keepDeferredIndexes) restoreDeferredIndexes(this.db);
    migrate(this.db);
    // Statement journals in memory. An insert that fires a count trigger inside a larger
    // transaction (group commit, a pull's batch) keeps the old content of each page it
    // touches in a statement journal; past 64 KiB SQLite spills that journal to a temp file
    // and from then on writes every statement's pages to it with pwrite: 43 GB of writes
    // for a million-member pull, half its CPU time in the kernel. In memory the same pull
    // wrote 5.5 GB and cost 37% less CPU (docs/performance.md). After the migrations, and
    // switched back to files by a snapshot load: an index built on millions of rows should
    // sort in temp files, not in memory.
    this.db.pragma('temp_store = MEMORY');
  }

  private checkpointTimer?: NodeJS.Timeout;

  /**
   * Moves WAL checkpoints off the write path: instead of SQLite checkpointing (and
   * fsyncing) inside whichever write crosses 1000 WAL pages, a timer checkpoints once per
   * interval. Commits stay durable against a crash of the process (synchronous=NORMAL);
   * under a stream of inserts this halves the cost of each (bench:server, POST member).
   */
  checkpointEvery(ms: number): void {
    if (this.db.memory) return;
    this.db.pragma('wal_autocheckpoint = 0');
    this.checkpointTimer = setInterval(() => {
      if (this.db.open) this.stmt('PRAGMA wal_checkpoint(PASSIVE)').get();
    }, ms);
    this.checkpointTimer.unref();
  }

  close(): void {
    clearInterval(this.checkpointTimer);
    if (this.db.open) this.db.close(); // the last connection checkpoints the WAL on close
  }

  /** Prepared statements are cached by their text (src/storage/sqlite/ uses them too). */
  stmt(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /**
   * `immediate` takes the write lock at BEGIN, waiting for it up to the busy timeout: a
   * deferred transaction that has read first and then writes while another connection
   * holds the lock fails at once (SQLITE_BUSY), since SQLite cannot wait there safely.
   */
  transaction<T>(fn: () => T, mode: 'deferred' | 'immediate' = 'deferred'): T {
    return this.db.transaction(fn, mode);
  }

  // ------------------------------------------------------------------ clients and tokens

  clientAuth(id: string): ClientAuth | undefined {
    const row = this.stmt(`SELECT ${CLIENT_AUTH_COLUMNS} FROM clients WHERE id = ?`).get(id) as ClientAuthRow | undefined;
    return row && clientAuthOf(row);
  }

  noteClientUse(id: string, now: Date): void {
    this.stmt('UPDATE clients SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)').run(
      now.toISOString(),
      id,
      new Date(now.getTime() - CLIENT_USE_RESOLUTION_MS).toISOString(),
    );
  }

  addClient(id: string, secretHash: string, scope: Scope, now: Date, operator: string | null = null): ClientRecord | 'exists' {
    return this.transaction(() => {
      const at = now.toISOString();
      const r = this.stmt('INSERT INTO clients (id, secret_hash, created_at, scope) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING').run(id, secretHash, at, scope);
      if (r.changes !== 1) return 'exists';
      this.auditClientChange(now, 'client.add', id, operator, scope);
      return { client_id: id, scope, created_at: at, last_used_at: null, revoked_at: null, old_secret_valid_until: null };
    }, 'immediate');
  }

  listClients(): ClientRecord[] {
    return this.stmt(
      'SELECT id AS client_id, scope, created_at, last_used_at, revoked_at, old_secret_valid_until FROM clients ORDER BY created_at, id',
    ).all() as ClientRecord[];
  }

  setClientScope(id: string, scope: Scope, now: Date, operator: string | null = null): { changed: boolean } | 'missing' | 'revoked' {
    return this.transaction(() => {
      const row = this.stmt('SELECT scope, revoked_at FROM clients WHERE id = ?').get(id) as { scope: Scope; revoked_at: string | null } | undefined;
      if (!row) return 'missing';
      if (row.revoked_at) return 'revoked';
      if (row.scope === scope) return { changed: false };
      this.stmt('UPDATE clients SET scope = ? WHERE id = ?').run(scope, id);
      this.auditClientChange(now, 'client.scope', id, operator, scope);
      return { changed: true };
    }, 'immediate');
  }

  rotateClient(id: string, secretHash: string, now: Date, graceMs: number, operator: string | null = null): { old_secret_valid_until: string | null } | 'missing' | 'revoked' {
    return this.transaction(() => {
      const row = this.stmt('SELECT revoked_at FROM clients WHERE id = ?').get(id) as { revoked_at: string | null } | undefined;
      if (!row) return 'missing';
      if (row.revoked_at) return 'revoked';
      const until = graceMs > 0 ? new Date(now.getTime() + graceMs).toISOString() : null;
      this.stmt(
        `UPDATE clients SET old_secret_hash = CASE WHEN ? IS NULL THEN NULL ELSE secret_hash END, old_secret_valid_until = ?, secret_hash = ? WHERE id = ?`,
      ).run(until, until, secretHash, id);
      // the tokens issued with the old secret end with its grace
      this.stmt('UPDATE tokens SET expires_at = min(expires_at, ?) WHERE client_id = ?').run(now.getTime() + graceMs, id);
      this.auditClientChange(now, 'client.rotate', id, operator, graceText(graceMs));
      return { old_secret_valid_until: until };
    }, 'immediate');
  }

  revokeClient(id: string, now: Date, operator: string | null = null): { revoked_at: string; already: boolean } | 'missing' {
    return this.transaction(() => {
      const row = this.stmt('SELECT revoked_at FROM clients WHERE id = ?').get(id) as { revoked_at: string | null } | undefined;
      if (!row) return 'missing';
      if (row.revoked_at) return { revoked_at: row.revoked_at, already: true };
      const at = now.toISOString();
      this.stmt('UPDATE clients SET revoked_at = ?, old_secret_hash = NULL, old_secret_valid_until = NULL WHERE id = ?').run(at, id);
      this.stmt('DELETE FROM tokens WHERE client_id = ?').run(id);
      this.auditClientChange(now, 'client.revoke', id, operator, null);
      return { revoked_at: at, already: false };
    }, 'immediate');
  }

  listAudit(f: AuditFilter): AuditRecord[] {
    const where: string[] = [];
    const args: unknown[] = [];
    if (f.since) (where.push('at >= ?'), args.push(f.since));
    if (f.clientId !== undefined) (where.push('client_id = ?'), args.push(f.clientId));
    if (f.target !== undefined) (where.push('target = ?'), args.push(f.target));
    if (f.actions) (where.push(`action IN (${f.actions.map(() => '?').join(', ') || 'NULL'})`), args.push(...f.actions));
    return this.stmt(
      `SELECT ${AUDIT_COLUMNS} FROM audit${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY at DESC, seq DESC LIMIT ?`,
    ).all(...args, f.limit) as AuditRecord[];
  }

  /** The audit record of an HTTP write (inside the transaction of the change it records): no operator, no detail. */
  private audit(now: Date, action: AuditAction, target: string, ctx: AuditContext): void {
    this.stmt('INSERT INTO audit (at, action, client_id, target, request_id, address) VALUES (?, ?, ?, ?, ?, ?)').run(
      now.toISOString(),
      action,
      ctx.clientId,
      target,
      ctx.requestId,
      ctx.address,
    );
  }

  /** The audit record of a client change (inside its transaction): no client, who made it, and its detail. */
  private auditClientChange(now: Date, action: AuditAction, clientId: string, operator: string | null, detail: string | null): void {
    this.stmt('INSERT INTO audit (at, action, client_id, operator, target, detail) VALUES (?, ?, NULL, ?, ?, ?)').run(
      now.toISOString(),
      action,
      operator,
      clientId,
      detail,
    );
  }

  /**
   * A database that has neither chambers nor clients, and is no copy made by `sync pull`, has
   * never been served: `serve` seeds it. (A seed that died half-way rolled back, so it
   * counts as new again.)
   */
  isUnused(): boolean {
    // a copy made by `sync pull` is used even when the directory it copied is empty
    return (
      this.stmt(
        `SELECT (SELECT count(*) FROM clients) + (SELECT count(*) FROM (SELECT 1 FROM chambers LIMIT 1))
           + (SELECT count(*) FROM sync_state) AS n`,
      )
        .pluck()
        .get() === 0
    );
  }

  pendingChanges(): number {
    return this.stmt('SELECT count(*) FROM local_changes').pluck().get() as number;
  }

  clientCount(): number {
    return (this.stmt('SELECT count(*) AS n FROM clients WHERE revoked_at IS NULL').get() as { n: number }).n;
  }

  saveToken(hash: Buffer, clientId: string, version: string, expiresAtMs: number, scope: Scope): boolean {
    return (
      this.stmt(
        'INSERT INTO tokens (hash, client_id, version, expires_at, scope) SELECT ?, id, ?, ?, ? FROM clients WHERE id = ? AND revoked_at IS NULL',
      ).run(hash, version, expiresAtMs, scope, clientId).changes === 1
    );
  }

  findToken(hash: Buffer): TokenRecord | undefined {
    const row = this.stmt(
      // the lesser of the token's scope and its client's (`clients edit --scope read` takes effect on tokens issued before)
      `SELECT t.version, t.expires_at, t.client_id, CASE WHEN c.scope = 'read' THEN 'read' ELSE t.scope END AS scope
       FROM tokens t JOIN clients c ON c.id = t.client_id WHERE t.hash = ? AND c.revoked_at IS NULL`,
    ).get(hash) as { version: string; expires_at: number; client_id: string; scope: Scope } | undefined;
    return row && { version: row.version, expiresAt: row.expires_at, clientId: row.client_id, scope: row.scope };
  }

  purgeExpiredTokens(nowMs: number): number {
    return this.stmt('DELETE FROM tokens WHERE expires_at <= ?').run(nowMs).changes;
  }

  // ------------------------------------------------------------------ Idempotency-Key

  findAnswer(clientId: string, key: string, nowMs: number): StoredAnswer | undefined {
    const row = this.stmt(
      'SELECT request_hash, status, location, body FROM idempotency_keys WHERE client_id = ? AND key = ? AND created_ms > ?',
    ).get(clientId, key, nowMs - IDEMPOTENCY_TTL_MS) as { request_hash: string; status: number; location: string | null; body: string } | undefined;
    return row && { requestHash: row.request_hash, status: row.status, location: row.location, body: row.body };
  }

  purgeExpiredAnswers(nowMs: number): number {
    return this.stmt('DELETE FROM idempotency_keys WHERE created_ms <= ?').run(nowMs - IDEMPOTENCY_TTL_MS).changes;
  }

  /** Stores the answer under `idem`'s key; false when the key already has a live answer. */
  private claimKey(idem: IdempotentWrite, location: string, body: unknown): boolean {
    return (
      this.stmt(
        `INSERT INTO idempotency_keys (client_id, key, request_hash, status, location, body, created_ms) VALUES (?, ?, ?, 201, ?, ?, ?)
         ON CONFLICT (client_id, key) DO UPDATE SET request_hash = excluded.request_hash, status = excluded.status,
           location = excluded.location, body = excluded.body, created_ms = excluded.created_ms
         WHERE idempotency_keys.created_ms <= ?`,
      ).run(idem.clientId, idem.key, idem.requestHash, location, JSON.stringify(body), idem.nowMs, idem.nowMs - IDEMPOTENCY_TTL_MS).changes === 1
    );
  }

  // ------------------------------------------------------------------ local changes

  /** Whether this database is a copy made by `sync pull`: what is created in it is a change to push. */
  isCopy(): boolean {
    return this.stmt("SELECT 1 FROM sync_state WHERE key = 'source'").pluck().get() !== undefined;
  }

  private recordChange(kind: 'chamber' | 'member', recordId: string, chamberId: string | null, body: unknown, now: Date): void {
    this.stmt(
      `INSERT INTO local_changes (id, kind, record_id, chamber_id, body, idempotency_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(newId('chg', now.getTime()), kind, recordId, chamberId, JSON.stringify(body), randomUUID(), now.toISOString());
  }

  /**
   * Runs a write that is more than one statement (a key claimed, a change recorded) as one
   * unit: a savepoint inside the server's batch transaction, a transaction otherwise.
   */
  private atomically<T>(needed: boolean, fn: () => T): T {
    return needed ? this.db.transaction(fn) : fn();
  }

  // ------------------------------------------------------------------ chambers

  listChambers(f: ChamberFilter): Page<Chamber> {
    return this.snapshot(() => this.chambersPage(f));
  }

  private chambersPage(f: ChamberFilter): Page<Chamber> {
    const where: string[] = [];
    const args: unknown[] = [];
    if (f.type) (where.push('type = ?'), args.push(f.type));
    if (f.status) (where.push('status = ?'), args.push(f.status));
    const total = this.sumCounts('chamber_counts', where, args);
    const docs = this.sortedPage<Chamber>('chambers', CHAMBER_JSON, where, args, f.sort ?? { field: 'created_at', desc: false }, f, total);
    return { docs, total };
  }

  getChamber(id: string): JsonText<Chamber> | undefined {
    return this.stmt(`SELECT ${CHAMBER_JSON} FROM chambers WHERE id = ?`).pluck().get(id) as JsonText<Chamber> | undefined;
  }

  chamberType(id: string): ChamberType | undefined {
    const row = this.stmt('SELECT type FROM chambers WHERE id = ?').get(id) as { type: ChamberType } | undefined;
    return row?.type;
  }

  createChamber(w: ChamberWrite & { idem?: undefined }): Chamber;
  createChamber(w: ChamberWrite): Chamber | 'replay';
  createChamber({ input, now, status = 'active', id = newId('ch'), idem, audit }: ChamberWrite): Chamber | 'replay' {
    const row = newChamberRow(input, now, status, id);
    const chamber = toChamber(row);
    const copy = this.isCopy();
    return this.atomically(Boolean(idem) || copy || Boolean(audit), () => {
      if (idem && !this.claimKey(idem, idem.location(id), chamber)) return 'replay';
      this.stmt(`INSERT INTO chambers (${CHAMBER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(...chamberValues(row));
      if (copy) this.recordChange('chamber', id, null, input, now);
      if (audit) this.audit(now, 'chamber.create', id, audit);
      return chamber;
    });
  }

  // ------------------------------------------------------------------ members

  listMembers(chamberId: string, f: MemberFilter): Page<Member> {
    return this.snapshot(() => this.membersPage(chamberId, f));
  }

  private membersPage(chamberId: string, f: MemberFilter): Page<Member> {
    const where = ['chamber_id = ?'];
    const args: unknown[] = [chamberId];
    if (f.status) (where.push('status = ?'), args.push(f.status));
    const total = this.sumCounts('member_counts', where, args);
    const docs = this.sortedPage<Member>('members', MEMBER_JSON, where, args, f.sort ?? { field: 'joined_at', desc: false }, f, total);
    return { docs, total };
  }

  /**
   * Adds a member, or returns 'duplicate' when the chamber already has that e-mail (any
   * case), 'no-chamber' when there is no such chamber.
   */
  addMember(w: MemberWrite & { idem?: undefined }): Member | 'duplicate' | 'no-chamber';
  addMember(w: MemberWrite): Member | 'duplicate' | 'replay' | 'no-chamber';
  addMember({ chamberId, input, now, status = 'active', id = newId('mb'), idem, audit }: MemberWrite): Member | 'duplicate' | 'replay' | 'no-chamber' {
    const member = newMember(chamberId, input, now, status, id);
    const copy = this.isCopy();
    return this.atomically(Boolean(idem) || copy || Boolean(audit), () => {
      if (idem && this.findAnswer(idem.clientId, idem.key, idem.nowMs)) return 'replay';
      if (!this.chamberType(chamberId)) return 'no-chamber';
      const r = this.stmt(
        `INSERT INTO members (${MEMBER_COLUMNS}, email_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (chamber_id, email_key) DO NOTHING`,
      ).run(...memberValues(member), emailKey(input.email));
      if (r.changes !== 1) return 'duplicate';
      if (idem) this.claimKey(idem, idem.location(id), member);
      if (copy) this.recordChange('member', id, chamberId, input, now);
      if (audit) this.audit(now, 'member.add', id, audit);
      return member;
    });
  }

  getMember(chamberId: string, memberId: string): JsonText<Member> | undefined {
    return this.stmt(`SELECT ${MEMBER_JSON} FROM members WHERE id = ? AND chamber_id = ?`)
      .pluck()
      .get(memberId, chamberId) as JsonText<Member> | undefined;
  }

  // ------------------------------------------------------------------ events

  /** Events are not created through the interface; seed data and tests write them here. */
  insertEvent(event: Event): void {
    this.stmt(`INSERT INTO events (${EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`).run(...eventValues(event));
  }

  /**
   * A chamber's events in start order, statuses judged at `f.now`. `upcoming` and `past`
   * read the chamber's events that are not canceled in start order (index
   * events_by_live_start) and keep those that end after (or before) now.
   */
  listEvents(chamberId: string, f: EventFilter): Page<Event> {
    return this.snapshot(() => this.eventsPage(chamberId, f));
  }

  private eventsPage(chamberId: string, f: EventFilter): Page<Event> {
    const where = ['chamber_id = ?'];
    const args: unknown[] = [chamberId];
    if (f.status === 'canceled') where.push("status = 'canceled'");
    else if (f.status) {
      where.push("(status = 'canceled') = 0", f.status === 'upcoming' ? 'ends_at >= ?' : 'ends_at < ?');
      args.push(f.now);
    }
    if (f.from) (where.push('ends_at >= ?'), args.push(f.from));
    if (f.to) (where.push('starts_at <= ?'), args.push(f.to));
    let total: number;
    if (f.from || f.to || (f.status && f.status !== 'canceled')) {
      // Bounded by one chamber's events, read from its index range.
      total = (this.stmt(`SELECT count(*) AS n FROM events WHERE ${where.join(' AND ')}`).get(...args) as { n: number }).n;
    } else {
      total = this.sumCounts('event_counts', f.status ? ['chamber_id = ?', "status = 'canceled'"] : ['chamber_id = ?'], [chamberId]);
    }
    const docs = this.page<Event>(`SELECT ${EVENT_JSON} FROM events`, where, args, 'starts_at, id', f, total, [f.now, f.now]);
    return { docs, total };
  }

  // ------------------------------------------------------------------ helpers

  /**
   * Runs the statements of one list (its total, the page-boundary check, its page) in one
   * read transaction: they see one snapshot, and take the WAL read lock once instead of once
   * each (two fcntl calls a statement): 13% of a list in one process (docs/performance.md).
   * Inside a write transaction it is a savepoint.
   */
  private snapshot<T>(read: () => T): T {
    return this.db.transaction(read);
  }

  private sumCounts(table: string, where: string[], args: unknown[]): number {
    const sql = `SELECT coalesce(sum(n), 0) AS n FROM ${table}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
    return (this.stmt(sql).get(...args) as { n: number }).n;
  }

  private readonly boundaries = new PageBoundaries(
    () => (this.stmt('SELECT (SELECT data_version FROM pragma_data_version) || \':\' || total_changes()').pluck().get() as string),
  );

  /**
   * A page of a chambers or members list: read from the previous page's last row (a seek in
   * the list's index) when this connection read that page since the last write, or from the
   * nearest earlier page it read, skipping the pages between; else with OFFSET
   * (src/storage/page-boundaries.ts). All give the same rows.
   */
  private sortedPage<T>(table: 'chambers' | 'members', json: string, where: string[], args: unknown[], sort: Sort<string>, p: Paging, total: number): JsonText<T>[] {
    const offset = (p.page - 1) * p.perPage;
    if (offset >= total) return []; // past the last page: no query, and no huge OFFSET
    const order = orderBy(sort);
    const column = sort.field;
    const collate = column === 'name' ? ' COLLATE NOCASE' : '';
    const filters = where.length ? where.join(' AND ') : '1';
    const list = `${table}|${filters}|${JSON.stringify(args)}|${order}|${p.perPage}`;
    this.boundaries.check();
    const from = this.boundaries.before(list, p.page, p.perPage);
    let rows: [JsonText<T>, unknown, string][];
    if (from) {
      // (column, id) after the boundary in the list's order, as a range on the index; then
      // the pages between the boundary's and this one skipped (none when page-1 was read)
      const [after, atOrAfter] = sort.desc ? ['<', '<='] : ['>', '>='];
      const sql = `SELECT ${json}, ${column}, id FROM ${table} WHERE ${filters} AND ${column} ${atOrAfter} ?${collate}
        AND (${column} ${after} ?${collate} OR id ${after} ?) ORDER BY ${order} LIMIT ${pageSize(p.perPage)} OFFSET ?`;
      const { key, id } = from.boundary;
      rows = this.stmt(sql).raw().all(...args, key, key, id, from.skip) as typeof rows;
    } else {
      const sql = `SELECT ${json}, ${column}, id FROM ${table} WHERE ${filters} ORDER BY ${order} LIMIT ${pageSize(p.perPage)} OFFSET ?`;
      rows = this.stmt(sql).raw().all(...args, offset) as typeof rows;
    }
    const last = rows[rows.length - 1];
    if (last && rows.length === p.perPage) this.boundaries.set(list, p.page, { key: last[1], id: last[2] });
    return rows.map((r) => r[0]);
  }

  /** `selectArgs` are the parameters of `select` itself, before those of `where`. */
  private page<T>(select: string, where: string[], args: unknown[], order: string, p: Paging, total: number, selectArgs: unknown[] = []): JsonText<T>[] {
    const offset = (p.page - 1) * p.perPage;
    if (offset >= total) return []; // past the last page: no query, and no huge OFFSET
    const sql = `${select}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ${pageSize(p.perPage)} OFFSET ?`;
    return this.stmt(sql).pluck().all(...selectArgs, ...args, offset) as JsonText<T>[];
  }
}

/**
 * A page size written into a statement's text rather than bound: SQLite runs a page with a
 * bound `LIMIT ?` ~14 µs slower than the same page with the number written in (55 against
 * 41 µs for 20 chambers, the same plan; docs/performance.md). Checked, since it becomes SQL:
 * the query schema allows 1 to 100, and each size in use is a statement of its own.
 */
function pageSize(perPage: number): number {
  if (!Number.isSafeInteger(perPage) || perPage < 1 || perPage > 1000) throw new RangeError(`page size out of range: ${perPage}`);
  return perPage;
}

/** ORDER BY for a sort, with `id` as the final tie-break in the same direction (so one index serves it). */
function orderBy(sort: Sort<string>): string {
  const dir = sort.desc ? ' DESC' : '';
  const column = sort.field === 'name' ? 'name COLLATE NOCASE' : sort.field;
  return `${column}${dir}, id${dir}`;
}

