import type { Sql, TransactionSql } from 'postgres';
import type { ChamberType, Event, Member } from '../../contract/index.js';
import { LoadConflict, type LoadRow, type SnapshotBackend, type SnapshotLoader, type SnapshotTables, type Stored } from '../snapshot-backend.js';
import type { ChamberRow } from '../rows.js';
import { emailKey } from '../store.js';

/** Rows per cursor fetch when exporting. */
const PAGE = 5000;
/** The demo seed's advisory lock (seed.ts): a snapshot load and a demo seed never run at once. */
const SEED_LOCK = 0x63686d63;
const TABLES = ['chambers', 'members', 'events'] as const;

/**
 * Snapshots on PostgreSQL. Export reads cursors in one REPEATABLE READ, READ ONLY
 * transaction (one consistent view). Import runs in one transaction: the foreign keys of
 * the three tables are dropped for the load and added back (validated) before it commits
 * (a file's chambers are in id order, not HQ first; the importer has checked every
 * reference already), the count triggers are off and the totals recomputed once, as the
 * demo seed does. Rows go in multi-row INSERTs; a taken id or e-mail address names its row.
 */
export class PgSnapshotIo implements SnapshotBackend {
  constructor(
    private readonly sql: Sql,
    readonly location: string,
  ) {}

  async read<T>(work: (tables: SnapshotTables) => Promise<T>): Promise<T> {
    return (await this.sql.begin('ISOLATION LEVEL REPEATABLE READ READ ONLY', async (tx) => {
      const pages = <R>(table: string, columns: string) =>
        async function* (): AsyncIterable<R[]> {
          for await (const rows of tx.unsafe(`SELECT ${columns} FROM ${table} ORDER BY id`).cursor(PAGE)) yield rows as unknown as R[];
        };
      return work({
        chambers: pages<Stored<ChamberRow>>('chambers', 'id, name, type, hq_id, status, street, city, postal_code, country, created_at, raw'),
        members: pages<Stored<Member>>('members', 'id, chamber_id, name, email, phone, membership_type, status, joined_at, raw'),
        events: pages<Stored<Event>>('events', 'id, chamber_id, title, status, starts_at, ends_at, location, raw'),
      });
    })) as T;
  }

  async load<T>(opts: { replace: boolean; onlyIfUnused?: boolean }, work: (loader: SnapshotLoader) => Promise<T>): Promise<T | undefined> {
    const result = await this.sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${SEED_LOCK})`;
      if (opts.onlyIfUnused) {
        const [row] = await tx<{ used: boolean }[]>`SELECT EXISTS (SELECT 1 FROM chambers) OR EXISTS (SELECT 1 FROM clients) AS used`;
        if (row!.used) return { skipped: true as const };
      }
      const foreignKeys = await tx<{ table: string; name: string; def: string }[]>`
        SELECT conrelid::regclass::text AS table, conname AS name, pg_get_constraintdef(oid) AS def
        FROM pg_constraint WHERE contype = 'f' AND conrelid IN ('chambers'::regclass, 'members'::regclass, 'events'::regclass)`;
      for (const fk of foreignKeys) await tx.unsafe(`ALTER TABLE ${fk.table} DROP CONSTRAINT "${fk.name}"`);
      for (const table of TABLES) await tx.unsafe(`ALTER TABLE ${table} DISABLE TRIGGER ${table}_count`);
      if (opts.replace) await tx`TRUNCATE events, members, chambers, local_changes, sync_state, sync_done`;
      const [had] = await tx<{ had: boolean }[]>`SELECT EXISTS (SELECT 1 FROM chambers) AS had`;
      const value = await work(new PgLoader(tx, had!.had));
      for (const table of TABLES) await tx.unsafe(`ALTER TABLE ${table} ENABLE TRIGGER ${table}_count`);
      await tx`DELETE FROM chamber_counts`;
      await tx`INSERT INTO chamber_counts SELECT type, status, 0, count(*) FROM chambers GROUP BY type, status`;
      await tx`DELETE FROM member_counts`;
      await tx`INSERT INTO member_counts SELECT chamber_id, status, 0, count(*) FROM members GROUP BY chamber_id, status`;
      await tx`DELETE FROM event_counts`;
      await tx`INSERT INTO event_counts SELECT chamber_id, status, 0, count(*) FROM events GROUP BY chamber_id, status`;
      for (const fk of foreignKeys) await tx.unsafe(`ALTER TABLE ${fk.table} ADD CONSTRAINT "${fk.name}" ${fk.def}`);
      return { skipped: false as const, value };
    });
    if (result.skipped) return undefined;
    await this.sql`ANALYZE chambers, members, events`; // planner statistics for the new rows now (as after the demo seed)
    return result.value as T;
  }
}

class PgLoader implements SnapshotLoader {
  constructor(
    private readonly tx: TransactionSql,
    readonly hadChambers: boolean,
  ) {}

  async chamberTypes(ids: string[]): Promise<Map<string, ChamberType>> {
    const rows = await this.tx<{ id: string; type: ChamberType }[]>`SELECT id, type FROM chambers WHERE id IN ${this.tx(ids)}`;
    return new Map(rows.map((r) => [r.id, r.type]));
  }

  async insertChambers(rows: LoadRow<ChamberRow>[]): Promise<void> {
    await this.insert('chamber', rows, rows.map(({ row, raw }) => ({ ...row, raw })));
  }

  async insertMembers(rows: LoadRow<Member>[]): Promise<void> {
    try {
      await this.insert('member', rows, rows.map(({ row, raw }) => ({ ...row, email_key: emailKey(row.email), raw })));
    } catch (err) {
      const e = err as { code?: string; constraint_name?: string; detail?: string };
      if (e.code !== '23505' || e.constraint_name !== 'members_email_per_chamber') throw err;
      // "Key (chamber_id, email_key)=(ch_…, a@b.example) already exists.": the later row of the batch with that key.
      const m = /=\((.*?), (.*)\) already exists/.exec(e.detail ?? '');
      const hit = m && rows.findLast((r) => r.row.chamber_id === m[1] && emailKey(r.row.email) === m[2]);
      throw hit ? new LoadConflict(hit.line, 'member', 'email', hit.row) : err;
    }
  }

  async insertEvents(rows: LoadRow<Event>[]): Promise<void> {
    await this.insert('event', rows, rows.map(({ row, raw }) => ({ ...row, raw })));
  }

  /** One INSERT for the batch; an id already present is skipped by the statement and named here. */
  private async insert(kind: 'chamber' | 'member' | 'event', rows: LoadRow<{ id: string }>[], values: Record<string, unknown>[]): Promise<void> {
    const tx = this.tx;
    const inserted = await tx<{ id: string }[]>`INSERT INTO ${tx(`${kind}s`)} ${tx(values)} ON CONFLICT (id) DO NOTHING RETURNING id`;
    if (inserted.length === rows.length) return;
    const got = new Set(inserted.map((r) => r.id));
    const taken = rows.find((r) => !got.has(r.row.id))!;
    throw new LoadConflict(taken.line, kind, 'id', taken.row);
  }
}
