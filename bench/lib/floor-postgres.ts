import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { newId } from '../../src/storage/ids.js';
import { PageBoundaries, type Boundary } from '../../src/storage/page-boundaries.js';
import { eventOf, memberOf, toChamber, type ChamberRow } from '../../src/storage/rows.js';
import type { Event, Member } from '../../src/contract/index.js';
import type { FloorPage, FloorStore, ListQuery, NewMember } from './floor-store.js';

// The same-work floor on PostgreSQL (bench/same-work-floor.ts): the statements
// src/storage/postgres/pg-storage.ts sends for each list page and each POST member, on a `pg`
// Pool of the same size, with nothing around them. The same:
// - the pool: `max` connections, each on generic plans (plan_cache_mode =
//   force_generic_plan in the startup packet, pool.ts's GENERIC_PLANS), the hot statements
//   named prepared statements, and the rows' values read as text (pool.ts's parsers);
// - a chambers or members page: one statement with the list's total, list_generation and the
//   page (countedPage), the seek from the nearest earlier page read with the same boundaries
//   and stamps (src/storage/page-boundaries.ts), the JSON built in JavaScript from the same
//   functions (rows.ts);
// - an events page: its transaction with `SET LOCAL plan_cache_mode = auto`, the total, the
//   page;
// - POST member: the one statement with its CTEs (the chamber, the INSERT, the pending
//   change of a copy, the audit row).
// Left out: the storage's bounds, which cost JavaScript per statement (query_timeout, a
// timer each; the connection's error listener; the store's proxy), and `lookable`.

const CHAMBER_SELECT = 'id, name, type, hq_id, status, street, city, postal_code, country, created_at, raw';
const MEMBER_SELECT = 'id, chamber_id, name, email, phone, membership_type, status, joined_at, raw';
const EVENT_SELECT = 'id, chamber_id, title, status, starts_at, ends_at, location, raw';
const MEMBER_INSERT = 'id, chamber_id, name, email, phone, membership_type, status, joined_at, email_key';

/** pool.ts's type parsers: what the storage reads comes back as text but for these. */
const asText = (value: string) => value;
const PARSERS = new Map<number, (value: string) => unknown>([
  [pg.types.builtins.BOOL, (v) => v === 't'],
  [pg.types.builtins.INT2, (v) => Number.parseInt(v, 10)],
  [pg.types.builtins.INT4, (v) => Number.parseInt(v, 10)],
  [pg.types.builtins.FLOAT4, Number.parseFloat],
  [pg.types.builtins.FLOAT8, Number.parseFloat],
]);
const TYPES = { getTypeParser: (oid: number) => PARSERS.get(oid) ?? asText } as unknown as pg.CustomTypesConfig;

type Stored<T> = T & { raw: string | null };

/** Conditions with numbered parameters, as pg-storage.ts's Where. */
class Where {
  readonly args: (string | number)[] = [];
  private readonly terms: string[] = [];
  add(column: string, value: string | number, op = '='): void {
    this.args.push(value);
    this.terms.push(`${column} ${op} $${this.args.length}`);
  }
  raw(term: string): void {
    this.terms.push(term);
  }
  sql(extra?: string): string {
    const terms = extra ? [...this.terms, extra] : this.terms;
    return terms.length ? ` WHERE ${terms.join(' AND ')}` : '';
  }
}

export class PostgresFloor implements FloorStore {
  readonly #pool: pg.Pool;
  readonly #names = new Map<string, string>();
  readonly #boundaries = new PageBoundaries();

  constructor(url: string, poolSize: number) {
    this.#pool = new pg.Pool({ connectionString: url, max: poolSize, options: '-c plan_cache_mode=force_generic_plan', types: TYPES });
  }

  /** A named prepared statement per text, as pool.ts's statementName. */
  async #query<R>(client: pg.Pool | pg.PoolClient, text: string, values: unknown[], prepare = true): Promise<R[]> {
    let name: string | undefined;
    if (prepare) {
      name = this.#names.get(text);
      if (!name) this.#names.set(text, (name = `floor_${this.#names.size + 1}`));
    }
    return (await client.query<R & pg.QueryResultRow>({ text, values, ...(name && { name }) })).rows;
  }

  async chambers(q: ListQuery): Promise<FloorPage> {
    const where = new Where();
    if (q.type) where.add('type', q.type);
    if (q.status) where.add('status', q.status);
    const { rows, total } = await this.#countedPage<Stored<ChamberRow>>('chamber_counts', CHAMBER_SELECT, 'chambers', where, q.sort ?? { field: 'created_at', desc: false }, q);
    return { total, docs: rows.map((r) => r.raw ?? JSON.stringify(toChamber(r))) };
  }

  async members(chamberId: string, q: ListQuery): Promise<FloorPage> {
    const where = new Where();
    where.add('chamber_id', chamberId);
    if (q.status) where.add('status', q.status);
    const { rows, total } = await this.#countedPage<Stored<Member>>('member_counts', MEMBER_SELECT, 'members', where, q.sort ?? { field: 'joined_at', desc: false }, q);
    return { total, docs: rows.map((r) => r.raw ?? JSON.stringify(memberOf(r))) };
  }

  /** pg-storage.ts's countedPage, line for line. */
  async #countedPage<T>(counts: string, columns: string, table: string, where: Where, sort: { field: string; desc: boolean }, q: ListQuery): Promise<{ rows: T[]; total: number }> {
    const dir = sort.desc ? ' DESC' : '';
    const column = sort.field === 'name' ? 'name_key' : sort.field;
    const order = `${column}${dir}, id${dir}`;
    const after = sort.desc ? '<' : '>';
    const n = where.args.length;
    const list = `${table}|${where.sql()}|${JSON.stringify(where.args)}|${order}|${q.perPage}`;
    const read = async (from: { boundary: Boundary; skip: number } | undefined) => {
      let page: string;
      let args: (string | number)[];
      if (from && from.skip === 0) {
        page = `${where.sql(`(${column}, id) ${after} ($${n + 2}, $${n + 3})`)} ORDER BY ${order} LIMIT $${n + 1}`;
        args = [...where.args, q.perPage, String(from.boundary.key), from.boundary.id];
      } else {
        const start = from ? `(${column}, id) ${after} ($${n + 3}, $${n + 4})` : `t.total > $${n + 2}`;
        const first = `SELECT ${column}, id FROM ${table}${where.sql(start)} ORDER BY ${order} LIMIT 1 OFFSET $${n + 2}`;
        page = `${where.sql(`(${column}, id) ${after}= (${first})`)} ORDER BY ${order} LIMIT $${n + 1}`;
        args = from ? [...where.args, q.perPage, from.skip, String(from.boundary.key), from.boundary.id] : [...where.args, q.perPage, (q.page - 1) * q.perPage];
      }
      const text =
        `SELECT t.total, g.n AS generation, p.* FROM (SELECT coalesce(sum(n), 0)::bigint AS total FROM ${counts}${where.sql()}) t ` +
        `CROSS JOIN list_generation g LEFT JOIN LATERAL (SELECT ${columns}, ${column} AS sort_key FROM ${table}${page}) p ON true`;
      const rows = await this.#query<T & { total: string; generation: string; id: string | null; sort_key: string }>(this.#pool, text, args);
      return { rows, stamp: `${rows[0]!.generation}:${rows[0]!.total}` };
    };
    const from = this.#boundaries.before(list, q.page, q.perPage);
    let result = from && (await read(from));
    if (!result || result.stamp !== from!.boundary.stamp) result = await read(undefined);
    const { rows, stamp } = result;
    const last = rows[rows.length - 1]!;
    if (rows.length === q.perPage && last.id !== null) this.#boundaries.set(list, q.page, { key: last.sort_key, id: last.id, stamp });
    return {
      rows: rows.filter((r) => r.id !== null).map(({ total: _t, generation: _g, sort_key: _k, ...row }) => row as unknown as T),
      total: Number(rows[0]!.total),
    };
  }

  async events(chamberId: string, q: ListQuery): Promise<FloorPage> {
    const now = new Date().toISOString();
    const client = await this.#pool.connect();
    try {
      await this.#query(client, 'BEGIN', [], false);
      await this.#query(client, 'SET LOCAL plan_cache_mode = auto', [], false);
      const where = new Where();
      where.add('chamber_id', chamberId);
      if (q.status === 'canceled') where.add('status', 'canceled');
      else if (q.status) {
        where.raw("(status = 'canceled') = false");
        where.add('ends_at', now, q.status === 'upcoming' ? '>=' : '<');
      }
      if (q.from) where.add('ends_at', q.from, '>=');
      if (q.to) where.add('starts_at', q.to, '<=');
      let total: number;
      if (q.from || q.to || (q.status && q.status !== 'canceled')) {
        total = (await this.#query<{ n: number }>(client, `SELECT count(*)::int AS n FROM events${where.sql()}`, where.args))[0]!.n;
      } else {
        total = Number((await this.#query<{ n: string }>(client, `SELECT coalesce(sum(n), 0)::bigint AS n FROM event_counts${where.sql()}`, where.args))[0]!.n);
      }
      const offset = (q.page - 1) * q.perPage;
      let rows: Stored<Event>[] = [];
      if (offset < total) {
        const k = where.args.length;
        rows = await this.#query<Stored<Event>>(client, `SELECT ${EVENT_SELECT} FROM events${where.sql()} ORDER BY starts_at, id LIMIT $${k + 1} OFFSET $${k + 2}`, [...where.args, q.perPage, offset]);
      }
      await this.#query(client, 'COMMIT', [], false);
      return { total, docs: rows.map((r) => eventJson(r, now)) };
    } finally {
      client.release();
    }
  }

  async chamberExists(id: string): Promise<boolean> {
    return (await this.#query(this.#pool, 'SELECT type FROM chambers WHERE id = $1', [id])).length > 0;
  }

  /** pg-storage.ts's addMember without an Idempotency-Key, with its audit row: one statement. */
  async addMember(m: NewMember): Promise<'added' | 'duplicate' | 'no-chamber'> {
    const values: unknown[] = [];
    const p = (v: unknown) => (values.push(v), `$${values.length}`);
    const list = (vs: unknown[]) => vs.map(p).join(', ');
    const chamber = p(m.chamber_id);
    const row = list([m.id, m.chamber_id, m.name, m.email, m.phone, m.membership_type, m.status, m.joined_at, m.email.toLowerCase()]);
    const input = { name: m.name, email: m.email, ...(m.phone !== null && { phone: m.phone }), membership_type: m.membership_type };
    const text = `
      WITH c AS (SELECT 1 FROM chambers WHERE id = ${chamber}), m AS (
        INSERT INTO members (${MEMBER_INSERT})
        SELECT ${row} FROM c
        
        ON CONFLICT (chamber_id, email_key) DO NOTHING
        RETURNING id
      ), 
      l AS (
    INSERT INTO local_changes (id, kind, record_id, chamber_id, body, idempotency_key, created_at)
    SELECT ${list([newId('chg', Date.parse(m.joined_at)), 'member'])}, id, ${list([m.chamber_id, JSON.stringify(input), randomUUID(), m.joined_at])}
    FROM m WHERE EXISTS (SELECT 1 FROM sync_state WHERE key = 'source')
    RETURNING 1), a AS (
    INSERT INTO audit (at, action, client_id, target, request_id, address)
    SELECT ${list([m.joined_at, 'member.add', m.audit.clientId])}, id, ${list([m.audit.requestId, m.audit.address])} FROM m
    RETURNING 1)
      SELECT (SELECT count(*)::int FROM m) AS added, (SELECT count(*)::int FROM c) AS chamber`;
    const [r] = await this.#query<{ added: number; chamber: number }>(this.#pool, text, values);
    if (r!.chamber === 0) return 'no-chamber';
    return r!.added === 1 ? 'added' : 'duplicate';
  }
}

/** pg-storage.ts's eventJson: the status judged at `now`. */
function eventJson(r: Stored<Event>, now: string): string {
  const judged = eventOf(r, now);
  if (r.raw === null) return JSON.stringify(judged);
  const event = JSON.parse(r.raw) as Event;
  event.status = judged.status;
  return JSON.stringify(event);
}
