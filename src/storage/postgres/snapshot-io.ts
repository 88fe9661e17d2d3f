import type { ChamberType, Event, Member } from '../../contract/index.js';
import { LoadConflict, type LoadRow, type SnapshotBackend, type SnapshotLoader, type SnapshotTables, type Stored } from '../snapshot-backend.js';
import type { ChamberRow } from '../rows.js';
import { emailKey } from '../store.js';
import { insertRows, type PgPool, type Queryable } from './pool.js';

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
    private readonly pool: PgPool,
    readonly location: string,
  ) {}

  /** Bulk work (pool.ts): an export of the large data is not cut by the request bounds. */
  async read<T>(work: (tables: SnapshotTables) => Promise<T>): Promise<T> {
    return this.pool.transaction(
      async (tx) => {
        const pages = <R>(table: string, columns: string) =>
          async function* (): AsyncIterable<R[]> {
            const cursor = `snapshot_${table}`;
            await tx.execute(`DECLARE ${cursor} NO SCROLL CURSOR FOR SELECT ${columns} FROM ${table} ORDER BY id`);
            for (let rows = await tx.query<R>(`FETCH ${PAGE} FROM ${cursor}`); rows.length; rows = await tx.query<R>(`FETCH ${PAGE} FROM ${cursor}`)) yield rows;
            await tx.execute(`CLOSE ${cursor}`);
          };
        return work({
          chambers: pages<Stored<ChamberRow>>('chambers', 'id, name, type, hq_id, status, street, city, postal_code, country, created_at, raw'),
          members: pages<Stored<Member>>('members', 'id, chamber_id, name, email, phone, membership_type, status, joined_at, raw'),
          events: pages<Stored<Event>>('events', 'id, chamber_id, title, status, starts_at, ends_at, location, raw'),
        });
      },
      { begin: 'ISOLATION LEVEL REPEATABLE READ READ ONLY', bulk: true },
    );
  }

  /** Bulk work (pool.ts), in one transaction on one connection (--pool-size 1 is enough). */
  async load<T>(opts: { replace: boolean; onlyIfUnused?: boolean }, work: (loader: SnapshotLoader) => Promise<T>): Promise<T | undefined> {
    const result = await this.pool.transaction(
      async (tx) => {
        await tx.execute('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK]);
        if (opts.onlyIfUnused) {
          const [row] = await tx.query<{ used: boolean }>('SELECT EXISTS (SELECT 1 FROM chambers) OR EXISTS (SELECT 1 FROM clients) AS used');
          if (row!.used) return { skipped: true as const };
        }
        const foreignKeys = await tx.query<{ table: string; name: string; def: string }>(`
          SELECT conrelid::regclass::text AS table, conname AS name, pg_get_constraintdef(oid) AS def
          FROM pg_constraint WHERE contype = 'f' AND conrelid IN ('chambers'::regclass, 'members'::regclass, 'events'::regclass)`);
        for (const fk of foreignKeys) await tx.execute(`ALTER TABLE ${fk.table} DROP CONSTRAINT "${fk.name}"`);
        for (const table of TABLES) await tx.execute(`ALTER TABLE ${table} DISABLE TRIGGER ${table}_count`);
        if (opts.replace) await tx.execute('TRUNCATE events, members, chambers, local_changes, sync_state, sync_done');
        const [had] = await tx.query<{ had: boolean }>('SELECT EXISTS (SELECT 1 FROM chambers) AS had');
        const value = await work(new PgLoader(tx, had!.had));
        for (const table of TABLES) await tx.execute(`ALTER TABLE ${table} ENABLE TRIGGER ${table}_count`);
        await tx.execute('DELETE FROM chamber_counts');
        await tx.execute('INSERT INTO chamber_counts SELECT type, status, 0, count(*) FROM chambers GROUP BY type, status');
        await tx.execute('DELETE FROM member_counts');
        await tx.execute('INSERT INTO member_counts SELECT chamber_id, status, 0, count(*) FROM members GROUP BY chamber_id, status');
        await tx.execute('DELETE FROM event_counts');
        await tx.execute('INSERT INTO event_counts SELECT chamber_id, status, 0, count(*) FROM events GROUP BY chamber_id, status');
        for (const fk of foreignKeys) await tx.execute(`ALTER TABLE ${fk.table} ADD CONSTRAINT "${fk.name}" ${fk.def}`);
        return { skipped: false as const, value };
      },
      { bulk: true },
    );
    if (result.skipped) return undefined;
    // planner statistics for the new rows now (as after the demo seed)
    await this.pool.transaction((tx) => tx.execute('ANALYZE chambers, members, events'), { bulk: true });
    return result.value;
  }
}

class PgLoader implements SnapshotLoader {
  constructor(
    private readonly tx: Queryable,
    readonly hadChambers: boolean,
  ) {}

  async chamberTypes(ids: string[]): Promise<Map<string, ChamberType>> {
    const rows = await this.tx.query<{ id: string; type: ChamberType }>('SELECT id, type FROM chambers WHERE id = ANY($1::text[])', [ids]);
    return new Map(rows.map((r) => [r.id, r.type]));
  }

  async insertChambers(rows: LoadRow<ChamberRow>[]): Promise<void> {
    await this.insert('chamber', rows, rows.map(({ row, raw }) => ({ ...row, raw })));
  }

  async insertMembers(rows: LoadRow<Member>[]): Promise<void> {
    try {
      await this.insert('member', rows, rows.map(({ row, raw }) => ({ ...row, email_key: emailKey(row.email), raw })));
    } catch (err) {
      const e = err as { code?: string; constraint?: string; detail?: string };
      if (e.code !== '23505' || e.constraint !== 'members_email_per_chamber') throw err;
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
    const inserted = await insertRows<{ id: string }>(this.tx, `${kind}s`, values, 'ON CONFLICT (id) DO NOTHING RETURNING id');
    if (inserted.length === rows.length) return;
    const got = new Set(inserted.map((r) => r.id));
    const taken = rows.find((r) => !got.has(r.row.id))!;
    throw new LoadConflict(taken.line, kind, 'id', taken.row);
  }
}
