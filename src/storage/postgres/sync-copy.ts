import type { ReservedSql, Sql } from 'postgres';
import type { Chamber, Event, Member } from '../../contract/index.js';
import { syncStateOf, type CopyCounts, type CopyStore, type LocalChange, type SyncSource, type SyncState } from '../copy-store.js';
import { copiedChamberRow, copiedMemberRow } from '../copied-rows.js';
import { eventOf, rawUnlessCanonical } from '../rows.js';
import type { PgStorage } from './pg-storage.js';

// Offline work on a PostgreSQL copy: the statements of src/storage/sqlite/sync-copy.ts,
// with PostgreSQL's foreign keys kept on. A pull's chamber list is written in one
// transaction with the HQ reference checked at its end (a page may name an HQ that a later
// page brings); a pushed chamber's record is written before its members move to it.

const CHAMBER_RECORD = `v(id text, name text, type text, hq_id text, status text, street text, city text, postal_code text, country text, created_at text, raw text)`;
const MEMBER_RECORD = `v(id text, chamber_id text, name text, email text, email_key text, phone text, membership_type text, status text, joined_at text, raw text)`;
const EVENT_RECORD = `v(id text, chamber_id text, title text, status text, starts_at text, ends_at text, location text, raw text)`;
const CHAMBER_UPSERT = `INSERT INTO chambers (id, name, type, hq_id, status, street, city, postal_code, country, created_at, raw, synced_run)
  SELECT id, name, type, hq_id, status, street, city, postal_code, country, created_at, raw, $2::bigint FROM jsonb_to_recordset($1::jsonb) AS ${CHAMBER_RECORD}
  ON CONFLICT (id) DO UPDATE SET name = excluded.name, type = excluded.type, hq_id = excluded.hq_id, status = excluded.status,
    street = excluded.street, city = excluded.city, postal_code = excluded.postal_code, country = excluded.country,
    created_at = excluded.created_at, raw = excluded.raw, synced_run = excluded.synced_run`;
const MEMBER_SET = `chamber_id = excluded.chamber_id, name = excluded.name, email = excluded.email, email_key = excluded.email_key,
    phone = excluded.phone, membership_type = excluded.membership_type, status = excluded.status, joined_at = excluded.joined_at,
    raw = excluded.raw, synced_run = excluded.synced_run`;
const CHANGE_COLUMNS = 'seq::float8 AS seq, id, kind, record_id, chamber_id, body, idempotency_key, created_at, state, error, attempted_at, remote_before::float8 AS remote_before';

const chamberRow = copiedChamberRow;
const memberRow = copiedMemberRow;

export class PgSyncCopy implements CopyStore {
  readonly sql: Sql;
  heldBack = 0;
  #list: ReservedSql | undefined;

  constructor(readonly pg: PgStorage) {
    this.sql = pg.sql;
  }

  get location(): string {
    return this.pg.location;
  }

  async close(): Promise<void> {
    await this.pg.close();
  }

  /** The chamber list's transaction while it is written, else the pool. */
  #q(): Sql {
    return (this.#list ?? this.sql) as Sql;
  }

  async state(): Promise<SyncState> {
    const rows = await this.sql<{ key: string; value: string }[]>`SELECT key, value FROM sync_state`;
    return syncStateOf(rows);
  }

  async #set(sql: Sql, key: string, value: string | undefined): Promise<void> {
    if (value === undefined) await sql`DELETE FROM sync_state WHERE key = ${key}`;
    else await sql`INSERT INTO sync_state (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
  }

  async holdsOtherData(): Promise<boolean> {
    const [row] = await this.sql<{ other: boolean }[]>`
      SELECT NOT EXISTS (SELECT 1 FROM sync_state WHERE key = 'source') AND EXISTS (SELECT 1 FROM chambers) AS other`;
    return row!.other;
  }

  async startRun(source: SyncSource): Promise<number> {
    return this.sql.begin(async (tx) => {
      await tx`LOCK TABLE sync_state IN EXCLUSIVE MODE`;
      const s = await this.state();
      await this.#set(tx as unknown as Sql, 'source', JSON.stringify(source));
      if (s.run) return s.run;
      const run = s.lastRun + 1;
      await this.#set(tx as unknown as Sql, 'run', String(run));
      await tx`DELETE FROM sync_done`;
      return run;
    }) as Promise<number>;
  }

  async beginChamberList(): Promise<void> {
    this.#list = await this.sql.reserve();
    await this.#list`BEGIN`;
    await this.#list`SET CONSTRAINTS chambers_hq_id_fkey DEFERRED`;
  }

  async endChamberList(ok: boolean): Promise<void> {
    const list = this.#list;
    this.#list = undefined;
    if (!list) return;
    try {
      await list.unsafe(ok ? 'COMMIT' : 'ROLLBACK');
    } finally {
      list.release();
    }
  }

  async upsertChambers(records: Chamber[], run: number): Promise<void> {
    await this.#q().unsafe(CHAMBER_UPSERT, [records.map(chamberRow), run] as never);
  }

  /**
   * Another member of the chamber with the address: at the remote it moved to this member,
   * so a synced holder is stale and goes; a local change keeps it, and the remote member
   * waits for push (counted in `heldBack`).
   */
  async upsertMembers(records: Member[], run: number): Promise<void> {
    // postgres.js sends a jsonb parameter as JSON itself
    const rows = records.map(memberRow) as never;
    const held = await this.sql.begin(async (tx) => {
      await tx.unsafe(
        `DELETE FROM members m USING jsonb_to_recordset($1::jsonb) AS v(id text, chamber_id text, email_key text)
         WHERE m.chamber_id = v.chamber_id AND m.email_key = v.email_key AND m.id <> v.id AND m.synced_run IS NOT NULL`,
        [rows] as never,
      );
      const [r] = await tx.unsafe(
        `WITH v AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS ${MEMBER_RECORD}),
         ins AS (
           INSERT INTO members (id, chamber_id, name, email, email_key, phone, membership_type, status, joined_at, raw, synced_run)
           SELECT id, chamber_id, name, email, email_key, phone, membership_type, status, joined_at, raw, $2::bigint FROM v
           WHERE NOT EXISTS (SELECT 1 FROM members l WHERE l.chamber_id = v.chamber_id AND l.email_key = v.email_key AND l.id <> v.id AND l.synced_run IS NULL)
           ON CONFLICT (id) DO UPDATE SET ${MEMBER_SET}
           RETURNING 1)
         SELECT (SELECT count(*) FROM v)::int - (SELECT count(*) FROM ins)::int AS held`,
        [rows, run] as never,
      );
      return (r as unknown as { held: number }).held;
    });
    this.heldBack += held as number;
  }

  async upsertEvents(records: Event[], run: number): Promise<void> {
    const rows = records.map((e) => ({ ...eventOf(e), raw: rawUnlessCanonical(e, eventOf(e)) }));
    await this.sql.unsafe(
      `INSERT INTO events (id, chamber_id, title, status, starts_at, ends_at, location, raw, synced_run)
       SELECT id, chamber_id, title, status, starts_at, ends_at, location, raw, $2::bigint FROM jsonb_to_recordset($1::jsonb) AS ${EVENT_RECORD}
       ON CONFLICT (id) DO UPDATE SET chamber_id = excluded.chamber_id, title = excluded.title, status = excluded.status,
         starts_at = excluded.starts_at, ends_at = excluded.ends_at, location = excluded.location, raw = excluded.raw, synced_run = excluded.synced_run`,
      [rows, run] as never,
    );
  }

  /** Every write is committed when it returns. */
  flush(): void {}

  async chambersToVisit(run: number, afterId: string, limit: number): Promise<string[]> {
    const rows = await this.sql<{ id: string }[]>`
      SELECT id FROM chambers c WHERE synced_run = ${run} AND id > ${afterId}
        AND NOT EXISTS (SELECT 1 FROM sync_done d WHERE d.chamber_id = c.id)
      ORDER BY id LIMIT ${limit}`;
    return rows.map((r) => r.id);
  }

  async runProgress(run: number): Promise<{ seen: number; done: number }> {
    const [row] = await this.sql<{ seen: number; done: number }[]>`
      SELECT (SELECT count(*) FROM chambers WHERE synced_run = ${run})::int AS seen, (SELECT count(*) FROM sync_done)::int AS done`;
    return row!;
  }

  async finishChamber(chamberId: string, run: number, events: boolean): Promise<void> {
    await this.sql.begin(async (tx) => {
      await tx`DELETE FROM members WHERE chamber_id = ${chamberId} AND synced_run IS NOT NULL AND synced_run <> ${run}`;
      if (events) await tx`DELETE FROM events WHERE chamber_id = ${chamberId} AND synced_run IS NOT NULL AND synced_run <> ${run}`;
      await tx`INSERT INTO sync_done (chamber_id) VALUES (${chamberId}) ON CONFLICT DO NOTHING`;
    });
  }

  async finishRun(run: number, pulledAt: string, events: boolean): Promise<string[]> {
    return this.sql.begin(async (tx) => {
      const sql = tx as unknown as Sql;
      // subsidiaries first: an HQ goes only once nothing refers to it
      const stale = await sql<{ id: string }[]>`
        SELECT id FROM chambers WHERE synced_run IS NOT NULL AND synced_run <> ${run} ORDER BY (type = 'hq'), id`;
      const kept: string[] = [];
      for (const { id } of stale) if (!(await this.#removeUnlessReferenced(sql, id))) kept.push(id);
      await this.#set(sql, 'last_run', String(run));
      await this.#set(sql, 'run', undefined);
      await this.#set(sql, 'pulled_at', pulledAt);
      await this.#set(sql, 'events', String(events));
      await sql`DELETE FROM sync_done`;
      return kept;
    }) as Promise<string[]>;
  }

  removeUnlessReferenced(id: string): Promise<boolean> {
    return this.#removeUnlessReferenced(this.sql, id);
  }

  /** Removes a chamber gone at the remote (its members and events go with it), unless pending changes or other chambers refer to it. */
  async #removeUnlessReferenced(sql: Sql, id: string): Promise<boolean> {
    const [row] = await sql<{ referenced: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM local_changes WHERE chamber_id = ${id} OR (kind = 'chamber' AND body::jsonb->>'hq_id' = ${id}))
          OR EXISTS (SELECT 1 FROM chambers WHERE hq_id = ${id}) AS referenced`;
    if (row!.referenced) return false;
    await sql`DELETE FROM chambers WHERE id = ${id} AND synced_run IS NOT NULL`;
    return true;
  }

  async counts(): Promise<CopyCounts> {
    const [row] = await this.sql<CopyCounts[]>`
      SELECT (SELECT coalesce(sum(n), 0) FROM chamber_counts)::int AS chambers, (SELECT coalesce(sum(n), 0) FROM member_counts)::int AS members,
             (SELECT coalesce(sum(n), 0) FROM event_counts)::int AS events`;
    return row!;
  }

  async changes(): Promise<LocalChange[]> {
    return (await this.sql.unsafe(`SELECT ${CHANGE_COLUMNS} FROM local_changes ORDER BY seq`)) as unknown as LocalChange[];
  }

  async change(id: string): Promise<LocalChange | undefined> {
    const [row] = (await this.sql.unsafe(`SELECT ${CHANGE_COLUMNS} FROM local_changes WHERE id = $1`, [id])) as unknown as LocalChange[];
    return row;
  }

  async changeFor(recordId: string): Promise<LocalChange | undefined> {
    const [row] = (await this.sql.unsafe(`SELECT ${CHANGE_COLUMNS} FROM local_changes WHERE record_id = $1`, [recordId])) as unknown as LocalChange[];
    return row;
  }

  async discard(changeId: string): Promise<'discarded' | 'missing' | { dependents: string[] }> {
    return this.sql.begin(async (tx) => {
      const [change] = await tx<LocalChange[]>`SELECT * FROM local_changes WHERE id = ${changeId} FOR UPDATE`;
      if (!change) return 'missing' as const;
      if (change.kind === 'chamber') {
        const dependents = await tx<{ id: string }[]>`
          SELECT id FROM local_changes WHERE chamber_id = ${change.record_id} OR (kind = 'chamber' AND body::jsonb->>'hq_id' = ${change.record_id}) ORDER BY seq`;
        if (dependents.length) return { dependents: dependents.map((d) => d.id) };
        await tx`DELETE FROM local_changes WHERE id = ${changeId}`;
        await tx`DELETE FROM chambers WHERE id = ${change.record_id} AND synced_run IS NULL`;
      } else {
        await tx`DELETE FROM local_changes WHERE id = ${changeId}`;
        await tx`DELETE FROM members WHERE id = ${change.record_id} AND synced_run IS NULL`;
      }
      return 'discarded' as const;
    }) as Promise<'discarded' | 'missing' | { dependents: string[] }>;
  }

  async markAttempted(changeId: string, at: string, remoteBefore?: number): Promise<void> {
    await this.sql`UPDATE local_changes SET attempted_at = ${at}, remote_before = coalesce(remote_before, ${remoteBefore ?? null}::bigint) WHERE id = ${changeId}`;
  }

  async markRejected(changeId: string, error: string): Promise<void> {
    await this.sql`UPDATE local_changes SET state = 'rejected', error = ${error} WHERE id = ${changeId}`;
  }

  async settleChamber(change: LocalChange, remote: Chamber): Promise<void> {
    const run = (await this.state()).lastRun || null;
    await this.sql.begin(async (tx) => {
      const local = change.record_id;
      // the remote's record first: what refers to the local one moves to it
      await tx.unsafe(CHAMBER_UPSERT, [[chamberRow(remote)], run] as never);
      if (remote.id !== local) {
        await tx`UPDATE members SET chamber_id = ${remote.id} WHERE chamber_id = ${local}`;
        await tx`UPDATE events SET chamber_id = ${remote.id} WHERE chamber_id = ${local}`;
        await tx`UPDATE chambers SET hq_id = ${remote.id} WHERE hq_id = ${local}`;
        await tx`UPDATE local_changes SET chamber_id = ${remote.id} WHERE chamber_id = ${local}`;
        await tx`UPDATE local_changes SET body = jsonb_set(body::jsonb, '{hq_id}', to_jsonb(${remote.id}::text))::text
                 WHERE kind = 'chamber' AND body::jsonb->>'hq_id' = ${local}`;
        await tx`DELETE FROM chambers WHERE id = ${local}`;
      }
      await tx`DELETE FROM local_changes WHERE id = ${change.id}`;
    });
  }

  async settleMember(change: LocalChange, remote: Member): Promise<void> {
    const run = (await this.state()).lastRun || null;
    const row = memberRow(remote);
    await this.sql.begin(async (tx) => {
      await tx`DELETE FROM members WHERE id = ${change.record_id}`;
      await tx`DELETE FROM members WHERE chamber_id = ${row.chamber_id} AND email_key = ${row.email_key} AND id <> ${row.id}`;
      await tx.unsafe(
        `INSERT INTO members (id, chamber_id, name, email, email_key, phone, membership_type, status, joined_at, raw, synced_run)
         SELECT id, chamber_id, name, email, email_key, phone, membership_type, status, joined_at, raw, $2::bigint FROM jsonb_to_recordset($1::jsonb) AS ${MEMBER_RECORD}
         ON CONFLICT (id) DO UPDATE SET ${MEMBER_SET}`,
        [[row], run] as never,
      );
      await tx`DELETE FROM local_changes WHERE id = ${change.id}`;
    });
  }
}
