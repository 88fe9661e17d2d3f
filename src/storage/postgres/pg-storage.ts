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
import { eventOf, memberOf, newChamberRow, newMember, toChamber, type ChamberRow, type JsonText } from '../rows.js';
import {
  emailKey,
  IDEMPOTENCY_TTL_MS,
  type ChamberFilter,
  type DirectoryStore,
  type EventFilter,
  type IdempotentWrite,
  type MemberFilter,
  type Page,
  type Paging,
  type PoolStats,
  type SeededCounts,
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
import { PageBoundaries, type Boundary } from '../page-boundaries.js';
import { migratePostgres } from './migrations.js';
import { PgPool, type PgConnection, type Queryable } from './pool.js';
import { seedPostgres } from './seed.js';

export interface PgStorageOptions {
  /** Connections in the pool (default 10): every connection the instance opens. */
  poolSize?: number;
  /**
   * A command's storage (`sync`, `snapshot`) rather than a server's: no request to answer
   * within a bound, so its statements have the bulk bounds (pool.ts, BULK_QUERY_TIMEOUT_MS).
   */
  bulk?: boolean;
  /** Sees each statement sent, with its parameters (the query-plan tests record them). */
  onQuery?: (text: string, params: unknown[]) => void;
  /** Through a pooler in transaction mode (pool.ts, PgPoolOptions.pooler). */
  pooler?: 'transaction';
}

/**
 * The hot statements are named prepared statements, and every connection keeps them on their
 * generic plan (pool.ts, GENERIC_PLANS: `plan_cache_mode = force_generic_plan`). PostgreSQL
 * plans a prepared statement afresh for its first five executions, then keeps its generic
 * plan only if that looks no dearer than the custom ones. A list page never does: a bound
 * LIMIT or OFFSET is priced at a tenth of the table, and `chamber_id = $1` at an average
 * chamber, while a custom plan knows the page is 20 rows of a 100,000-member chamber. So
 * every list statement was planned on every execution: 0.12 ms of the backend's CPU for a
 * chambers page whose seek takes 0.05 ms (docs/performance.md). The generic plans of every
 * chambers and members list, count, lookup and write read the index that gives the list's
 * order (test/storage/pg-plan-cache.test.ts checks them on skewed data); events are the
 * exception.
 */
const PREPARED = { prepare: true } as const;

const CHAMBER_SELECT = 'id, name, type, hq_id, status, street, city, postal_code, country, created_at, raw';
const MEMBER_SELECT = 'id, chamber_id, name, email, phone, membership_type, status, joined_at, raw';
const EVENT_SELECT = 'id, chamber_id, title, status, starts_at, ends_at, location, raw';

/** A row as read: the columns, and the record as its source sent it when it differs (`raw`). */
type Stored<T> = T & { raw: string | null };

/** Identifies URLs that name a PostgreSQL database (`--db postgres://…`). */
export const isPostgresUrl = (db: string) => /^postgres(ql)?:\/\//i.test(db);

/**
 * Query parameters of a connection URL that hold a secret: libpq (and node-postgres) take
 * the password there too (`?password=…`), and the client key's passphrase as `sslpassword`.
 */
const SECRET_PARAMS = ['password', 'sslpassword'];

/** The URL without its passwords (`user:***@`, `?password=***`), for messages, logs and the saved profile. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    for (const key of [...u.searchParams.keys()]) {
      if (SECRET_PARAMS.includes(key.toLowerCase())) u.searchParams.set(key, '***');
    }
    return u.toString();
  } catch {
    return 'the PostgreSQL URL given';
  }
}

/**
 * The storage on PostgreSQL: the same operations as the SQLite storage, asynchronous, for
 * several `serve` instances sharing one database. The only module that speaks SQL to it.
 * Rows are read as columns and turned into JSON here (PostgreSQL's own JSON text would
 * differ from SQLite's in spacing), so both backends send byte-identical answers.
 */
/**
 * Whether an id from a request can be looked up: PostgreSQL's text types cannot hold U+0000,
 * and a query that names it fails. An id holding it is in no table: simply not found, as on
 * SQLite (docs/server-behaviour.md#hostile-input).
 */
const lookable = (id: string) => !id.includes('\u0000');
const NO_PAGE = { docs: [], total: 0 };

export class PgStorage implements DirectoryStore {
  readonly backend = 'postgres';
  readonly location: string;
  /** Where list pages ended, for the next page's seek (see countedPage). */
  private readonly boundaries = new PageBoundaries();

  private constructor(
    /** The one pool: lists, lookups, writes, seeding and snapshots alike. */
    readonly pool: PgPool,
    url: string,
  ) {
    this.location = redactUrl(url);
  }

  static async open(url: string, opts: PgStorageOptions = {}): Promise<PgStorage> {
    // --pool-size bounds every connection the instance opens
    // (docs/operations/shared-deployment.md#operating-it)
    const pool = new PgPool(url, { max: opts.poolSize ?? 10, bulk: opts.bulk, onQuery: opts.onQuery, pooler: opts.pooler });
    try {
      await migratePostgres(pool);
    } catch (err) {
      await pool.close();
      throw err;
    }
    return new PgStorage(pool, url);
  }

  /** The demo data, once, even when several instances start together on a new database. */
  async seedDemo(opts: { size: 'standard' | 'large'; now: Date; seed?: number }): Promise<SeededCounts | undefined> {
    return seedPostgres(this.pool, opts);
  }

  /** Within a bound even when the database is gone (pool.ts, CLOSE_TIMEOUT_MS). */
  async close(): Promise<void> {
    await this.pool.close();
  }

  poolStats(): PoolStats {
    return this.pool.stats();
  }

  /** Whether the database answers (GET /healthz). */
  async ping(): Promise<boolean> {
    try {
      await this.pool.query('SELECT 1', [], PREPARED);
      return true;
    } catch {
      return false;
    }
  }

  // ------------------------------------------------------------------ clients and tokens

  async clientAuth(id: string): Promise<ClientAuth | undefined> {
    if (!lookable(id)) return undefined;
    const [row] = await this.pool.query<ClientAuthRow>(`SELECT ${CLIENT_AUTH_COLUMNS} FROM clients WHERE id = $1`, [id], PREPARED);
    return row && clientAuthOf(row);
  }

  async noteClientUse(id: string, now: Date): Promise<void> {
    // the condition makes it one write a minute per client whatever the number of instances
    await this.pool.execute(
      'UPDATE clients SET last_used_at = $1 WHERE id = $2 AND (last_used_at IS NULL OR last_used_at <= $3)',
      [now.toISOString(), id, new Date(now.getTime() - CLIENT_USE_RESOLUTION_MS).toISOString()],
      PREPARED,
    );
  }

  async addClient(id: string, secretHash: string, scope: Scope, now: Date, operator: string | null = null): Promise<ClientRecord | 'exists'> {
    if (!lookable(id)) throw new RangeError('a client id cannot hold U+0000');
    return this.pool.transaction(async (tx) => {
      const at = now.toISOString();
      const added = await tx.execute('INSERT INTO clients (id, secret_hash, created_at, scope) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING', [id, secretHash, at, scope]);
      if (added !== 1) return 'exists';
      await auditClientChange(tx, now, 'client.add', id, operator, scope);
      return { client_id: id, scope, created_at: at, last_used_at: null, revoked_at: null, old_secret_valid_until: null };
    });
  }

  async listClients(): Promise<ClientRecord[]> {
    return this.pool.query<ClientRecord>(
      'SELECT id AS client_id, scope, created_at, last_used_at, revoked_at, old_secret_valid_until FROM clients ORDER BY created_at, id',
    );
  }

  async setClientScope(id: string, scope: Scope, now: Date, operator: string | null = null): Promise<{ changed: boolean } | 'missing' | 'revoked'> {
    if (!lookable(id)) return 'missing';
    return this.pool.transaction(async (tx) => {
      const [row] = await tx.query<{ scope: Scope; revoked_at: string | null }>('SELECT scope, revoked_at FROM clients WHERE id = $1 FOR UPDATE', [id]);
      if (!row) return 'missing';
      if (row.revoked_at) return 'revoked';
      if (row.scope === scope) return { changed: false };
      await tx.execute('UPDATE clients SET scope = $1 WHERE id = $2', [scope, id]);
      await auditClientChange(tx, now, 'client.scope', id, operator, scope);
      return { changed: true };
    });
  }

  async rotateClient(id: string, secretHash: string, now: Date, graceMs: number, operator: string | null = null): Promise<{ old_secret_valid_until: string | null } | 'missing' | 'revoked'> {
    if (!lookable(id)) return 'missing';
    return this.pool.transaction(async (tx) => {
      const [row] = await tx.query<{ revoked_at: string | null }>('SELECT revoked_at FROM clients WHERE id = $1 FOR UPDATE', [id]);
      if (!row) return 'missing';
      if (row.revoked_at) return 'revoked';
      const until = graceMs > 0 ? new Date(now.getTime() + graceMs).toISOString() : null;
      await tx.execute(
        'UPDATE clients SET old_secret_hash = CASE WHEN $1::text IS NULL THEN NULL ELSE secret_hash END, old_secret_valid_until = $1, secret_hash = $2 WHERE id = $3',
        [until, secretHash, id],
      );
      // the tokens issued with the old secret end with its grace
      await tx.execute('UPDATE tokens SET expires_at = least(expires_at, $1) WHERE client_id = $2', [now.getTime() + graceMs, id]);
      await auditClientChange(tx, now, 'client.rotate', id, operator, graceText(graceMs));
      return { old_secret_valid_until: until };
    });
  }

  async revokeClient(id: string, now: Date, operator: string | null = null): Promise<{ revoked_at: string; already: boolean } | 'missing'> {
    if (!lookable(id)) return 'missing';
    return this.pool.transaction(async (tx) => {
      const [row] = await tx.query<{ revoked_at: string | null }>('SELECT revoked_at FROM clients WHERE id = $1 FOR UPDATE', [id]);
      if (!row) return 'missing';
      if (row.revoked_at) return { revoked_at: row.revoked_at, already: true };
      const at = now.toISOString();
      await tx.execute('UPDATE clients SET revoked_at = $1, old_secret_hash = NULL, old_secret_valid_until = NULL WHERE id = $2', [at, id]);
      await tx.execute('DELETE FROM tokens WHERE client_id = $1', [id]);
      await auditClientChange(tx, now, 'client.revoke', id, operator, null);
      return { revoked_at: at, already: false };
    });
  }

  async listAudit(f: AuditFilter): Promise<AuditRecord[]> {
    const where = new Where();
    if (f.since) where.add('at', f.since, '>=');
    if (f.clientId !== undefined) {
      if (!lookable(f.clientId)) return [];
      where.add('client_id', f.clientId);
    }
    if (f.target !== undefined) {
      if (!lookable(f.target)) return [];
      where.add('target', f.target);
    }
    if (f.actions) {
      where.args.push(...f.actions);
      where.raw(`action IN (${f.actions.map((_, i) => `$${where.args.length - f.actions!.length + i + 1}`).join(', ') || 'NULL'})`);
    }
    return this.pool.query<AuditRecord>(
      `SELECT ${AUDIT_COLUMNS} FROM audit${where.sql()} ORDER BY at DESC, seq DESC LIMIT $${where.args.length + 1}`,
      [...where.args, f.limit],
    );
  }

  async isUnused(): Promise<boolean> {
    const [row] = await this.pool.query<{ used: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM clients) OR EXISTS (SELECT 1 FROM chambers) OR EXISTS (SELECT 1 FROM sync_state) AS used',
    );
    return !row!.used;
  }

  async pendingChanges(): Promise<number> {
    const [row] = await this.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM local_changes');
    return row!.n;
  }

  async clientCount(): Promise<number> {
    const [row] = await this.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM clients WHERE revoked_at IS NULL');
    return row!.n;
  }

  async saveToken(hash: Buffer, clientId: string, version: string, expiresAtMs: number, scope: Scope): Promise<boolean> {
    // FOR SHARE waits for a revocation of the client in progress, then sees it: a token is
    // never stored for a client revoked before or while it was issued.
    const stored = await this.pool.execute(
      `INSERT INTO tokens (hash, client_id, version, expires_at, scope)
      SELECT $1, id, $3, $4, $5 FROM (SELECT id FROM clients WHERE id = $2 AND revoked_at IS NULL FOR SHARE) c`,
      [hash, clientId, version, expiresAtMs, scope],
      PREPARED,
    );
    return stored === 1;
  }

  async findToken(hash: Buffer): Promise<TokenRecord | undefined> {
    const [row] = await this.pool.query<{ version: string; expires_at: string; client_id: string; scope: Scope }>(
      // the lesser of the token's scope and its client's (`clients edit --scope read` takes effect on tokens issued before)
      `SELECT t.version, t.expires_at, t.client_id, CASE WHEN c.scope = 'read' THEN 'read' ELSE t.scope END AS scope
       FROM tokens t JOIN clients c ON c.id = t.client_id WHERE t.hash = $1 AND c.revoked_at IS NULL`,
      [hash],
      PREPARED,
    );
    return row && { version: row.version, expiresAt: Number(row.expires_at), clientId: row.client_id, scope: row.scope };
  }

  async purgeExpiredTokens(nowMs: number): Promise<number> {
    return this.pool.execute('DELETE FROM tokens WHERE expires_at <= $1', [nowMs], PREPARED);
  }

  // ------------------------------------------------------------------ Idempotency-Key

  async findAnswer(clientId: string, key: string, nowMs: number): Promise<StoredAnswer | undefined> {
    const [row] = await this.pool.query<{ request_hash: string; status: number; location: string | null; body: string }>(
      `SELECT request_hash, status, location, body FROM idempotency_keys
      WHERE client_id = $1 AND key = $2 AND created_ms > $3`,
      [clientId, key, nowMs - IDEMPOTENCY_TTL_MS],
      PREPARED,
    );
    return row && { requestHash: row.request_hash, status: row.status, location: row.location, body: row.body };
  }

  async purgeExpiredAnswers(nowMs: number): Promise<number> {
    return this.pool.execute('DELETE FROM idempotency_keys WHERE created_ms <= $1', [nowMs - IDEMPOTENCY_TTL_MS], PREPARED);
  }

  // ------------------------------------------------------------------ chambers

  async listChambers(f: ChamberFilter): Promise<Page<Chamber>> {
    const where = new Where();
    if (f.type) where.add('type', f.type);
    if (f.status) where.add('status', f.status);
    const { rows, total } = await this.countedPage<Stored<ChamberRow>>('chamber_counts', CHAMBER_SELECT, 'chambers', where, f.sort ?? { field: 'created_at', desc: false }, f);
    return { docs: rows.map(chamberJson), total };
  }

  async getChamber(id: string): Promise<JsonText<Chamber> | undefined> {
    if (!lookable(id)) return undefined;
    const [row] = await this.pool.query<Stored<ChamberRow>>(`SELECT ${CHAMBER_SELECT} FROM chambers WHERE id = $1`, [id], PREPARED);
    return row && chamberJson(row);
  }

  async chamberType(id: string): Promise<ChamberType | undefined> {
    if (!lookable(id)) return undefined;
    const [row] = await this.pool.query<{ type: ChamberType }>('SELECT type FROM chambers WHERE id = $1', [id], PREPARED);
    return row?.type;
  }

  async createChamber(w: ChamberWrite & { idem?: undefined }): Promise<Chamber>;
  async createChamber(w: ChamberWrite): Promise<Chamber | 'replay'>;
  async createChamber({ input, now, status = 'active', id = newId('ch'), idem, audit }: ChamberWrite): Promise<Chamber | 'replay'> {
    const row = newChamberRow(input, now, status, id);
    const chamber = toChamber(row);
    const p = new Params();
    const values = p.list([row.id, row.name, row.type, row.hq_id, row.status, row.street, row.city, row.postal_code, row.country, row.created_at]);
    // One statement. With a key, the key is claimed first and the chamber exists only if it
    // was: a concurrent request with the same key (through any instance) waits on the key's
    // row, then finds it taken and creates nothing. In a copy made by `sync pull`, the
    // chamber is also a pending local change; with `audit`, an audit record.
    const audited = audit ? `, a AS (${auditInsert(p, 'chamber.create', now, audit, 'c')})` : '';
    const text = idem
      ? `WITH k AS (${claimKey(p, idem, idem.location(id), chamber)}),
          c AS (INSERT INTO chambers (${CHAMBER_INSERT}) SELECT ${values} FROM k RETURNING id),
          l AS (${recordChange(p, 'chamber', null, input, now, 'c')})${audited}
          SELECT count(*)::int AS n FROM c`
      : `WITH c AS (INSERT INTO chambers (${CHAMBER_INSERT}) VALUES (${values}) RETURNING id),
          l AS (${recordChange(p, 'chamber', null, input, now, 'c')})${audited}
          SELECT count(*)::int AS n FROM c`;
    const [r] = await this.pool.query<{ n: number }>(text, p.values, PREPARED);
    return r!.n === 1 ? chamber : 'replay';
  }

  // ------------------------------------------------------------------ members

  async listMembers(chamberId: string, f: MemberFilter): Promise<Page<Member>> {
    if (!lookable(chamberId)) return NO_PAGE;
    const where = new Where();
    where.add('chamber_id', chamberId);
    if (f.status) where.add('status', f.status);
    const { rows, total } = await this.countedPage<Stored<Member>>('member_counts', MEMBER_SELECT, 'members', where, f.sort ?? { field: 'joined_at', desc: false }, f);
    return { docs: rows.map(memberJson), total };
  }

  /**
   * Adds a member, or returns 'duplicate' when the chamber already has that e-mail (any
   * case) or, with `idem`, when the key already has an answer (the route then replays it);
   * 'no-chamber' when there is no such chamber. One statement: the chamber is looked up in
   * it, the unique index decides between concurrent adds, whichever instance they came
   * through; the key's answer is stored only if the member was added; in a copy made by
   * `sync pull`, the member is also a pending local change.
   */
  async addMember(w: MemberWrite & { idem?: undefined }): Promise<Member | 'duplicate' | 'no-chamber'>;
  async addMember(w: MemberWrite): Promise<Member | 'duplicate' | 'replay' | 'no-chamber'>;
  async addMember({ chamberId, input, now, status = 'active', id = newId('mb'), idem, audit }: MemberWrite): Promise<Member | 'duplicate' | 'no-chamber'> {
    if (!lookable(chamberId)) return 'no-chamber';
    const member = newMember(chamberId, input, now, status, id);
    const row = { ...member, email_key: emailKey(input.email) };
    const p = new Params();
    const chamber = p.add(chamberId);
    const values = p.list([row.id, row.chamber_id, row.name, row.email, row.phone, row.membership_type, row.status, row.joined_at, row.email_key]);
    // With a key: nothing is added if the key already has an answer, and the answer is
    // claimed only for the member added.
    const unanswered = idem
      ? `WHERE NOT EXISTS (SELECT 1 FROM idempotency_keys WHERE client_id = ${p.add(idem.clientId)} AND key = ${p.add(idem.key)} AND created_ms > ${p.add(idem.nowMs - IDEMPOTENCY_TTL_MS)})`
      : '';
    const text = `
      WITH c AS (SELECT 1 FROM chambers WHERE id = ${chamber}), m AS (
        INSERT INTO members (${MEMBER_INSERT})
        SELECT ${values} FROM c
        ${unanswered}
        ON CONFLICT (chamber_id, email_key) DO NOTHING
        RETURNING id
      ), ${idem ? `k AS (${claimKey(p, idem, idem.location(id), member, 'm')}),` : ''}
      l AS (${recordChange(p, 'member', chamberId, input, now, 'm')})${audit ? `, a AS (${auditInsert(p, 'member.add', now, audit, 'm')})` : ''}
      SELECT (SELECT count(*)::int FROM m) AS added, (SELECT count(*)::int FROM c) AS chamber`;
    const [r] = await this.pool.query<{ added: number; chamber: number }>(text, p.values, PREPARED);
    if (r!.chamber === 0) return 'no-chamber';
    return r!.added === 1 ? member : 'duplicate';
  }

  async getMember(chamberId: string, memberId: string): Promise<JsonText<Member> | undefined> {
    if (!lookable(chamberId) || !lookable(memberId)) return undefined;
    const [row] = await this.pool.query<Stored<Member>>(`SELECT ${MEMBER_SELECT} FROM members WHERE id = $1 AND chamber_id = $2`, [memberId, chamberId], PREPARED);
    return row && memberJson(row);
  }

  // ------------------------------------------------------------------ events

  async insertEvent(event: Event): Promise<void> {
    await this.pool.execute(
      'INSERT INTO events (id, chamber_id, title, status, starts_at, ends_at, location) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [event.id, event.chamber_id, event.title, event.status, event.starts_at, event.ends_at, event.location],
      PREPARED,
    );
  }

  /** As the SQLite storage: statuses judged at `f.now` (index events_by_live_start). */
  async listEvents(chamberId: string, f: EventFilter): Promise<Page<Event>> {
    if (!lookable(chamberId)) return NO_PAGE;
    // The exception to GENERIC_PLANS: a generic plan of a time window sorts the chamber's
    // events, where a plan made for the chamber reads them in order from events_by_start.
    return this.pool.transaction(async (tx) => {
      await tx.execute('SET LOCAL plan_cache_mode = auto');
      return this.eventsPage(tx, chamberId, f);
    });
  }

  private async eventsPage(sql: Queryable, chamberId: string, f: EventFilter): Promise<Page<Event>> {
    const where = new Where();
    where.add('chamber_id', chamberId);
    if (f.status === 'canceled') where.add('status', 'canceled');
    else if (f.status) {
      where.raw("(status = 'canceled') = false");
      where.add('ends_at', f.now, f.status === 'upcoming' ? '>=' : '<');
    }
    if (f.from) where.add('ends_at', f.from, '>=');
    if (f.to) where.add('starts_at', f.to, '<=');
    let total: number;
    if (f.from || f.to || (f.status && f.status !== 'canceled')) {
      // Bounded by one chamber's events, read from its index range.
      const [row] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM events${where.sql()}`, where.args, PREPARED);
      total = row!.n;
    } else {
      total = await this.sumCounts(sql, 'event_counts', where);
    }
    const rows = await this.page<Stored<Event>>(sql, `SELECT ${EVENT_SELECT} FROM events`, where, 'starts_at, id', f, total);
    return { docs: rows.map((r) => eventJson(r, f.now)), total };
  }

  // ------------------------------------------------------------------ helpers

  private async sumCounts(sql: Queryable, table: string, where: Where): Promise<number> {
    const [row] = await sql.query<{ n: string }>(`SELECT coalesce(sum(n), 0)::bigint AS n FROM ${table}${where.sql()}`, where.args, PREPARED);
    return Number(row!.n);
  }

  /**
   * A page of a chambers or members list and the list's total, in one statement: the total
   * from the counter rows (`where` filters on columns the counter table has too). Page n is
   * read by seeking from page n-1's last row in the list's index when this instance read
   * that page (or from the nearest earlier page it read, skipping the pages between), else
   * with OFFSET (which reads every row before the page: ~2 ms at page 100).
   * The statement also returns the list's total and list_generation (schema step 4); a
   * seek's rows are used only when both are what they were when the boundary was read, so
   * the set of rows in the list is the same (inserts move the total; changes and removals,
   * by any instance, move the generation). Otherwise the page is read again with OFFSET,
   * and only when its offset is below the total (a page past the end costs no scan).
   */
  private async countedPage<T>(counts: string, columns: string, table: string, where: Where, sort: Sort<string>, p: Paging): Promise<{ rows: T[]; total: number }> {
    const { order, column, after } = sortOf(sort);
    const n = where.args.length;
    const list = `${table}|${where.sql()}|${JSON.stringify(where.args)}|${order}|${p.perPage}`;
    const read = async (from: { boundary: Boundary; skip: number } | undefined) => {
      // $n+1: the page size. A seek from page n-1: its last row ($n+2, $n+3). Otherwise the
      // page's first row is found by skipping $n+2 rows, from the list's start or after a
      // boundary ($n+3, $n+4), in the list's index alone: the index holds the sort column
      // and id, so an index-only scan skips without reading the table (1,980 rows: 0.9 ms
      // against 400 ms cold and ~2 ms warm when OFFSET fetched every skipped row's tuple).
      let page: string;
      let args: (string | number)[];
      if (from && from.skip === 0) {
        page = `${where.sql(`(${column}, id) ${after} ($${n + 2}, $${n + 3})`)} ORDER BY ${order} LIMIT $${n + 1}`;
        args = [...where.args, p.perPage, String(from.boundary.key), from.boundary.id];
      } else {
        // past the list's end (t.total) nothing is skipped at all
        const start = from ? `(${column}, id) ${after} ($${n + 3}, $${n + 4})` : `t.total > $${n + 2}`;
        const first = `SELECT ${column}, id FROM ${table}${where.sql(start)} ORDER BY ${order} LIMIT 1 OFFSET $${n + 2}`;
        page = `${where.sql(`(${column}, id) ${after}= (${first})`)} ORDER BY ${order} LIMIT $${n + 1}`;
        args = from
          ? [...where.args, p.perPage, from.skip, String(from.boundary.key), from.boundary.id]
          : [...where.args, p.perPage, (p.page - 1) * p.perPage];
      }
      const text =
        `SELECT t.total, g.n AS generation, p.* FROM (SELECT coalesce(sum(n), 0)::bigint AS total FROM ${counts}${where.sql()}) t ` +
        `CROSS JOIN list_generation g LEFT JOIN LATERAL (SELECT ${columns}, ${column} AS sort_key FROM ${table}${page}) p ON true`;
      const rows = await this.pool.query<T & { total: string; generation: string; id: string | null; sort_key: string }>(text, args, PREPARED);
      return { rows, stamp: `${rows[0]!.generation}:${rows[0]!.total}` };
    };
    const from = this.boundaries.before(list, p.page, p.perPage);
    let result = from && (await read(from));
    if (!result || result.stamp !== from!.boundary.stamp) result = await read(undefined);
    const { rows, stamp } = result;
    const last = rows[rows.length - 1]!;
    if (rows.length === p.perPage && last.id !== null) this.boundaries.set(list, p.page, { key: last.sort_key, id: last.id, stamp });
    return {
      rows: rows.filter((r) => r.id !== null).map(({ total: _t, generation: _g, sort_key: _k, ...row }) => row as unknown as T),
      total: Number(rows[0]!.total),
    };
  }

  private async page<T>(sql: Queryable, select: string, where: Where, order: string, p: Paging, total: number): Promise<T[]> {
    const offset = (p.page - 1) * p.perPage;
    if (offset >= total) return []; // past the last page: no query, and no huge OFFSET
    const n = where.args.length;
    const text = `${select}${where.sql()} ORDER BY ${order} LIMIT $${n + 1} OFFSET $${n + 2}`;
    return sql.query<T>(text, [...where.args, p.perPage, offset], PREPARED);
  }
}

/** Numbered parameters of a statement written in parts: add() gives each value its `$n`. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
  /** `$a, $b, …` for the values, in order. */
  list(values: unknown[]): string {
    return values.map((v) => this.add(v)).join(', ');
  }
}

/**
 * The INSERT that stores an answer under `idem`'s key, returning a row when it did (a key
 * whose answer has expired is taken over). `from`: a CTE whose rows gate the insert.
 */
function claimKey(p: Params, idem: IdempotentWrite, location: string, body: unknown, from?: string): string {
  const values = `${p.list([idem.clientId, idem.key, idem.requestHash])}, 201, ${p.list([location, JSON.stringify(body)])}, ${p.add(idem.nowMs)}::bigint`;
  return `
    INSERT INTO idempotency_keys (client_id, key, request_hash, status, location, body, created_ms)
    ${from ? `SELECT ${values} FROM ${from}` : `VALUES (${values})`}
    ON CONFLICT (client_id, key) DO UPDATE SET request_hash = excluded.request_hash, status = excluded.status,
      location = excluded.location, body = excluded.body, created_ms = excluded.created_ms
    WHERE idempotency_keys.created_ms <= ${p.add(idem.nowMs - IDEMPOTENCY_TTL_MS)}
    RETURNING 1`;
}

/** The INSERT of the audit record of an HTTP write, for the record `from` (a CTE) inserted. */
function auditInsert(p: Params, action: AuditAction, now: Date, ctx: AuditContext, from: 'c' | 'm'): string {
  return `
    INSERT INTO audit (at, action, client_id, target, request_id, address)
    SELECT ${p.list([now.toISOString(), action, ctx.clientId])}, id, ${p.list([ctx.requestId, ctx.address])} FROM ${from}
    RETURNING 1`;
}

/** The audit record of a client change made by `chamberctl clients`: no client, who made it, and its detail. */
async function auditClientChange(tx: PgConnection, now: Date, action: AuditAction, clientId: string, operator: string | null, detail: string | null): Promise<void> {
  await tx.execute('INSERT INTO audit (at, action, client_id, operator, target, detail) VALUES ($1, $2, NULL, $3, $4, $5)', [
    now.toISOString(),
    action,
    operator,
    clientId,
    detail,
  ]);
}

const CHAMBER_INSERT = 'id, name, type, hq_id, status, street, city, postal_code, country, created_at';
const MEMBER_INSERT = 'id, chamber_id, name, email, phone, membership_type, status, joined_at, email_key';

/**
 * The INSERT of a pending local change for the record `from` (a CTE) inserted, when the
 * database is a copy made by `sync pull` (it has a source), in the statement that inserts it.
 */
function recordChange(p: Params, kind: 'chamber' | 'member', chamberId: string | null, body: unknown, now: Date, from: 'c' | 'm'): string {
  return `
    INSERT INTO local_changes (id, kind, record_id, chamber_id, body, idempotency_key, created_at)
    SELECT ${p.list([newId('chg', now.getTime()), kind])}, id, ${p.list([chamberId, JSON.stringify(body), randomUUID(), now.toISOString()])}
    FROM ${from} WHERE EXISTS (SELECT 1 FROM sync_state WHERE key = 'source')
    RETURNING 1`;
}

/** Equality (or range) conditions with numbered parameters. */
class Where {
  readonly args: (string | number)[] = [];
  private readonly terms: string[] = [];
  add(column: string, value: string | number, op: '=' | '>=' | '<=' | '<' = '='): void {
    this.args.push(value);
    this.terms.push(`${column} ${op} $${this.args.length}`);
  }
  /** A condition without parameters. */
  raw(term: string): void {
    this.terms.push(term);
  }
  /** ` WHERE …` with the conditions (and `extra`), or nothing when there are none. */
  sql(extra?: string): string {
    const terms = extra ? [...this.terms, extra] : this.terms;
    return terms.length ? ` WHERE ${terms.join(' AND ')}` : '';
  }
}

/**
 * ORDER BY for a sort, with `id` as the final tie-break in the same direction (so one index
 * serves it); the sort column, and the comparison that means "after" in that order.
 */
function sortOf(sort: Sort<string>): { order: string; column: string; after: '<' | '>' } {
  const dir = sort.desc ? ' DESC' : '';
  const column = sort.field === 'name' ? 'name_key' : sort.field;
  return { order: `${column}${dir}, id${dir}`, column, after: sort.desc ? '<' : '>' };
}

// Rows come back with exactly the resource's fields, in the resource's order, unless the
// record came from elsewhere with more (`raw`, served as it came).
const chamberJson = (r: Stored<ChamberRow>): JsonText<Chamber> => r.raw ?? JSON.stringify(toChamber(r));
const memberJson = (r: Stored<Member>): JsonText<Member> => r.raw ?? JSON.stringify(memberOf(r));
/**
 * The event as returned: its status judged at `now` (docs/server-behaviour.md#statuses), as the
 * SQLite storage does.
 */
function eventJson(r: Stored<Event>, now: string): JsonText<Event> {
  const judged = eventOf(r, now);
  if (r.raw === null) return JSON.stringify(judged);
  const event = JSON.parse(r.raw) as Event;
  event.status = judged.status;
  return JSON.stringify(event);
}
