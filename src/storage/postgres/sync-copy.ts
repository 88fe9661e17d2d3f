import type { Chamber, Event, Member } from '../../contract/index.js';
import { syncStateOf, type CopyCounts, type CopyStore, type LocalChange, type SyncSource, type SyncState } from '../copy-store.js';
import { copiedChamberRow, copiedMemberRow } from '../copied-rows.js';
import { eventOf, rawUnlessCanonical } from '../rows.js';
import type { PgStorage } from './pg-storage.js';
import type { PgConnection, PgPool, Queryable } from './pool.js';

// Offline work on a PostgreSQL copy: the statements of src/storage/sqlite/sync-copy.ts,
// with PostgreSQL's foreign keys kept on. A pull's chamber list is written in one
// transaction with the HQ reference checked at its end (a page may name an HQ that a later
// page brings); a pushed chamber's record is written before its members move to it.
// The storage is opened for bulk work (sync/open-copy.ts): a copy's statements are not cut
// by the bounds of a server's requests (pool.ts). A transaction never asks the pool for a
// second connection, so a pool of one is enough.

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
const BULK = { bulk: true } as const;

const chamberRow = copiedChamberRow;
const memberRow = copiedMemberRow;
/** Records as one jsonb parameter, for jsonb_to_recordset (an array parameter would be sent as a PostgreSQL array). */
const records = (rows: unknown[]) => JSON.stringify(rows);

export class PgSyncCopy implements CopyStore {
  readonly pool: PgPool;
  heldBack = 0;
  /** The chamber list's transaction while it is written. */
  #list: PgConnection | undefined;

  constructor(readonly pg: PgStorage) {
    this.pool = pg.pool;
  }

  get location(): string {
    return this.pg.location;
  }

  async close(): Promise<void> {
    await this.pg.close();
  }

  /** The chamber list's transaction while it is written, else the pool. */
  #q(): Queryable {
    return this.#list ?? this.pool;
  }

  async state(sql: Queryable = this.pool): Promise<SyncState> {
    return syncStateOf(await sql.query<{ key: string; value: string }>('SELECT key, value FROM sync_state'));
  }

  async #set(sql: Queryable, key: string, value: string | undefined): Promise<void> {
    if (value === undefined) await sql.execute('DELETE FROM sync_state WHERE key = $1', [key]);
    else await sql.execute('INSERT INTO sync_state (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);
  }

  async holdsOtherData(): Promise<boolean> {
    const [row] = await this.pool.query<{ other: boolean }>(`
      SELECT NOT EXISTS (SELECT 1 FROM sync_state WHERE key = 'source') AND EXISTS (SELECT 1 FROM chambers) AS other`);
    return row!.other;
  }

  async startRun(source: SyncSource): Promise<number> {
    return this.pool.transaction(async (tx) => {
      await tx.execute('LOCK TABLE sync_state IN EXCLUSIVE MODE');
      const s = await this.state(tx);
      await this.#set(tx, 'source', JSON.stringify(source));
      if (s.run) return s.run;
      const run = s.lastRun + 1;
      await this.#set(tx, 'run', String(run));
      await tx.execute('DELETE FROM sync_done');
      return run;
    }, BULK);
  }

  async beginChamberList(): Promise<void> {
    const list = await this.pool.begin(BULK);
    try {
      await list.execute('SET CONSTRAINTS chambers_hq_id_fkey DEFERRED');
    } catch (err) {
      await list.end(false);
      throw err;
    }
    this.#list = list;
  }

  async endChamberList(ok: boolean): Promise<void> {
    const list = this.#list;
    this.#list = undefined;
    await list?.end(ok);
  }

  async upsertChambers(items: Chamber[], run: number): Promise<void> {
    await this.#q().execute(CHAMBER_UPSERT, [records(items.map(chamberRow)), run]);
  }

  /**
   * Another member of the chamber with the address: at the remote it moved to this member,
   * so a synced holder is stale and goes; a local change keeps it, and the remote member
   * waits for push (counted in `heldBack`).
   */
  async upsertMembers(items: Member[], run: number): Promise<void> {
    const rows = records(items.map(memberRow));
    const held = await this.pool.transaction(async (tx) => {
      await tx.execute(
        `DELETE FROM members m USING jsonb_to_recordset($1::jsonb) AS v(id text, chamber_id text, email_key text)
         WHERE m.chamber_id = v.chamber_id AND m.email_key = v.email_key AND m.id <> v.id AND m.synced_run IS NOT NULL`,
        [rows],
      );
      const [r] = await tx.query<{ held: number }>(
        `WITH v AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS ${MEMBER_RECORD}),
         ins AS (
           INSERT INTO members (id, chamber_id, name, email, email_key, phone, membership_type, status, joined_at, raw, synced_run)
           SELECT id, chamber_id, name, email, email_key, phone, membership_type, status, joined_at, raw, $2::bigint FROM v
           WHERE NOT EXISTS (SELECT 1 FROM members l WHERE l.chamber_id = v.chamber_id AND l.email_key = v.email_key AND l.id <> v.id AND l.synced_run IS NULL)
           ON CONFLICT (id) DO UPDATE SET ${MEMBER_SET}
           RETURNING 1)
         SELECT (SELECT count(*) FROM v)::int - (SELECT count(*) FROM ins)::int AS held`,
        [rows, run],
      );
      return r!.held;
    }, BULK);
    this.heldBack += held;
  }

  async upsertEvents(items: Event[], run: number): Promise<void> {
    const rows = items.map((e) => ({ ...eventOf(e), raw: rawUnlessCanonical(e, eventOf(e)) }));
    await this.pool.execute(
      `INSERT INTO events (id, chamber_id, title, status, starts_at, ends_at, location, raw, synced_run)
       SELECT id, chamber_id, title, status, starts_at, ends_at, location, raw, $2::bigint FROM jsonb_to_recordset($1::jsonb) AS ${EVENT_RECORD}
       ON CONFLICT (id) DO UPDATE SET chamber_id = excluded.chamber_id, title = excluded.title, status = excluded.status,
         starts_at = excluded.starts_at, ends_at = excluded.ends_at, location = excluded.location, raw = excluded.raw, synced_run = excluded.synced_run`,
      [records(rows), run],
    );
  }

  /** Every write is committed when it returns. */
  flush(): void {}

  async chambersToVisit(run: number, afterId: string, limit: number): Promise<string[]> {
    const rows = await this.pool.query<{ id: string }>(
      `SELECT id FROM chambers c WHERE synced_run = $1 AND id > $2
        AND NOT EXISTS (SELECT 1 FROM sync_done d WHERE d.chamber_id = c.id)
      ORDER BY id LIMIT $3`,
      [run, afterId, limit],
    );
    return rows.map((r) => r.id);
  }

  async runProgress(run: number): Promise<{ seen: number; done: number }> {
    const [row] = await this.pool.query<{ seen: number; done: number }>(
      'SELECT (SELECT count(*) FROM chambers WHERE synced_run = $1)::int AS seen, (SELECT count(*) FROM sync_done)::int AS done',
      [run],
    );
    return row!;
  }

  async finishChamber(chamberId: string, run: number, events: boolean): Promise<void> {
    await this.pool.transaction(async (tx) => {
      await tx.execute('DELETE FROM members WHERE chamber_id = $1 AND synced_run IS NOT NULL AND synced_run <> $2', [chamberId, run]);
      if (events) await tx.execute('DELETE FROM events WHERE chamber_id = $1 AND synced_run IS NOT NULL AND synced_run <> $2', [chamberId, run]);
      await tx.execute('INSERT INTO sync_done (chamber_id) VALUES ($1) ON CONFLICT DO NOTHING', [chamberId]);
    }, BULK);
  }

  async finishRun(run: number, pulledAt: string, events: boolean): Promise<string[]> {
    return this.pool.transaction(async (tx) => {
      // subsidiaries first: an HQ goes only once nothing refers to it
      const stale = await tx.query<{ id: string }>(
        "SELECT id FROM chambers WHERE synced_run IS NOT NULL AND synced_run <> $1 ORDER BY (type = 'hq'), id",
        [run],
      );
      const kept: string[] = [];
      for (const { id } of stale) if (!(await this.#removeUnlessReferenced(tx, id))) kept.push(id);
      await this.#set(tx, 'last_run', String(run));
      await this.#set(tx, 'run', undefined);
      await this.#set(tx, 'pulled_at', pulledAt);
      await this.#set(tx, 'events', String(events));
      await tx.execute('DELETE FROM sync_done');
      return kept;
    }, BULK);
  }

  removeUnlessReferenced(id: string): Promise<boolean> {
    return this.pool.transaction((tx) => this.#removeUnlessReferenced(tx, id), BULK);
  }

  /** Removes a chamber gone at the remote (its members and events go with it), unless pending changes or other chambers refer to it. */
  async #removeUnlessReferenced(sql: Queryable, id: string): Promise<boolean> {
    const [row] = await sql.query<{ referenced: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM local_changes WHERE chamber_id = $1 OR (kind = 'chamber' AND body::jsonb->>'hq_id' = $1))
          OR EXISTS (SELECT 1 FROM chambers WHERE hq_id = $1) AS referenced`,
      [id],
    );
    if (row!.referenced) return false;
    await sql.execute('DELETE FROM chambers WHERE id = $1 AND synced_run IS NOT NULL', [id]);
    return true;
  }

  async counts(): Promise<CopyCounts> {
    const [row] = await this.pool.query<CopyCounts>(`
      SELECT (SELECT coalesce(sum(n), 0) FROM chamber_counts)::int AS chambers, (SELECT coalesce(sum(n), 0) FROM member_counts)::int AS members,
             (SELECT coalesce(sum(n), 0) FROM event_counts)::int AS events`);
    return row!;
  }

  async changes(): Promise<LocalChange[]> {
    return this.pool.query<LocalChange>(`SELECT ${CHANGE_COLUMNS} FROM local_changes ORDER BY seq`);
  }

  async change(id: string): Promise<LocalChange | undefined> {
    const [row] = await this.pool.query<LocalChange>(`SELECT ${CHANGE_COLUMNS} FROM local_changes WHERE id = $1`, [id]);
    return row;
  }

  async changeFor(recordId: string): Promise<LocalChange | undefined> {
    const [row] = await this.pool.query<LocalChange>(`SELECT ${CHANGE_COLUMNS} FROM local_changes WHERE record_id = $1`, [recordId]);
    return row;
  }

  async discard(changeId: string): Promise<'discarded' | 'missing' | { dependents: string[] }> {
    return this.pool.transaction(async (tx): Promise<'discarded' | 'missing' | { dependents: string[] }> => {
      const [change] = await tx.query<LocalChange>('SELECT * FROM local_changes WHERE id = $1 FOR UPDATE', [changeId]);
      if (!change) return 'missing';
      if (change.kind === 'chamber') {
        const dependents = await tx.query<{ id: string }>(
          `SELECT id FROM local_changes WHERE chamber_id = $1 OR (kind = 'chamber' AND body::jsonb->>'hq_id' = $1) ORDER BY seq`,
          [change.record_id],
        );
        if (dependents.length) return { dependents: dependents.map((d) => d.id) };
        await tx.execute('DELETE FROM local_changes WHERE id = $1', [changeId]);
        await tx.execute('DELETE FROM chambers WHERE id = $1 AND synced_run IS NULL', [change.record_id]);
      } else {
        await tx.execute('DELETE FROM local_changes WHERE id = $1', [changeId]);
        await tx.execute('DELETE FROM members WHERE id = $1 AND synced_run IS NULL', [change.record_id]);
      }
      return 'discarded';
    }, BULK);
  }

  async markAttempted(changeId: string, at: string, remoteBefore?: number): Promise<void> {
    await this.pool.execute('UPDATE local_changes SET attempted_at = $1, remote_before = coalesce(remote_before, $2::bigint) WHERE id = $3', [
      at,
      remoteBefore ?? null,
      changeId,
    ]);
  }

  async markRejected(changeId: string, error: string): Promise<void> {
    await this.pool.execute("UPDATE local_changes SET state = 'rejected', error = $1 WHERE id = $2", [error, changeId]);
  }

  async settleChamber(change: LocalChange, remote: Chamber): Promise<void> {
    const run = (await this.state()).lastRun || null;
    await this.pool.transaction(async (tx) => {
      const local = change.record_id;
      // the remote's record first: what refers to the local one moves to it
      await tx.execute(CHAMBER_UPSERT, [records([chamberRow(remote)]), run]);
      if (remote.id !== local) {
        const ids = [remote.id, local];
        await tx.execute('UPDATE members SET chamber_id = $1 WHERE chamber_id = $2', ids);
        await tx.execute('UPDATE events SET chamber_id = $1 WHERE chamber_id = $2', ids);
        await tx.execute('UPDATE chambers SET hq_id = $1 WHERE hq_id = $2', ids);
        await tx.execute('UPDATE local_changes SET chamber_id = $1 WHERE chamber_id = $2', ids);
        await tx.execute(
          `UPDATE local_changes SET body = jsonb_set(body::jsonb, '{hq_id}', to_jsonb($1::text))::text
                 WHERE kind = 'chamber' AND body::jsonb->>'hq_id' = $2`,
          ids,
        );
        await tx.execute('DELETE FROM chambers WHERE id = $1', [local]);
      }
      await tx.execute('DELETE FROM local_changes WHERE id = $1', [change.id]);
    }, BULK);
  }

  async settleMember(change: LocalChange, remote: Member): Promise<void> {
    const run = (await this.state()).lastRun || null;
    const row = memberRow(remote);
    await this.pool.transaction(async (tx) => {
      await tx.execute('DELETE FROM members WHERE id = $1', [change.record_id]);
      await tx.execute('DELETE FROM members WHERE chamber_id = $1 AND email_key = $2 AND id <> $3', [row.chamber_id, row.email_key, row.id]);
      await tx.execute(
        `INSERT INTO members (id, chamber_id, name, email, email_key, phone, membership_type, status, joined_at, raw, synced_run)
         SELECT id, chamber_id, name, email, email_key, phone, membership_type, status, joined_at, raw, $2::bigint FROM jsonb_to_recordset($1::jsonb) AS ${MEMBER_RECORD}
         ON CONFLICT (id) DO UPDATE SET ${MEMBER_SET}`,
        [records([row]), run],
      );
      await tx.execute('DELETE FROM local_changes WHERE id = $1', [change.id]);
    }, BULK);
  }
}
