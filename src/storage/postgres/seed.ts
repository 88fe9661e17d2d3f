import { generateEvents } from '../seed/events.js';
import { planDemo, type DemoPlan } from '../seed/index.js';
import { generateMembers } from '../seed/members.js';
import type { SeededCounts } from '../store.js';
import { insertRows as insert, type PgPool, type Queryable } from './pool.js';

/** Any fixed number: the advisory lock under which one instance seeds a new database. */
const SEED_LOCK = 0x63686d63; // "chmc"
const BATCH = 2000;

/**
 * The demo data on PostgreSQL: the same rows as the SQLite seed (src/storage/seed/), in one
 * transaction, under an advisory lock so that instances starting together on a new database
 * seed it once (the others find it used and skip). Rows go in multi-row INSERTs with the
 * count triggers off; the totals are then computed once from the tables.
 */
export async function seedPostgres(pool: PgPool, opts: { size: 'standard' | 'large'; now: Date; seed?: number }): Promise<SeededCounts | undefined> {
  const plan = planDemo(opts);
  // bulk work, in one transaction on one connection (--pool-size 1 is enough)
  const counts = await pool.transaction(
    async (tx) => {
      await tx.execute('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK]);
      const [used] = await tx.query<{ used: boolean }>('SELECT EXISTS (SELECT 1 FROM chambers) OR EXISTS (SELECT 1 FROM clients) AS used');
      if (used!.used) return undefined;
      for (const table of ['chambers', 'members', 'events']) await tx.execute(`ALTER TABLE ${table} DISABLE TRIGGER ${table}_count`);
      const inserted = await insertRows(tx, plan);
      for (const table of ['chambers', 'members', 'events']) await tx.execute(`ALTER TABLE ${table} ENABLE TRIGGER ${table}_count`);
      await tx.execute('INSERT INTO chamber_counts SELECT type, status, 0, count(*) FROM chambers GROUP BY type, status');
      await tx.execute('INSERT INTO member_counts SELECT chamber_id, status, 0, count(*) FROM members GROUP BY chamber_id, status');
      await tx.execute('INSERT INTO event_counts SELECT chamber_id, status, 0, count(*) FROM events GROUP BY chamber_id, status');
      return inserted;
    },
    { bulk: true },
  );
  // Planner statistics for the new rows now, not whenever autovacuum gets to them: without
  // them the first requests may scan instead of using the indexes.
  if (counts) await pool.transaction((tx) => tx.execute('ANALYZE'), { bulk: true });
  return counts;
}

async function insertRows(sql: Queryable, plan: DemoPlan): Promise<SeededCounts> {
  const counts: SeededCounts = { chambers: 0, members: 0, events: 0 };
  const chambers = plan.chambers.map((c) => c.row as unknown as Record<string, unknown>);
  for (let i = 0; i < chambers.length; i += BATCH) await insert(sql, 'chambers', chambers.slice(i, i + BATCH));
  counts.chambers = chambers.length;
  // Members, then events, chamber by chamber: each generator draws from its own stream in
  // the same order as the SQLite seed, so both hold the same rows. At most one chamber's
  // rows are in memory at a time.
  let rows: Record<string, unknown>[] = [];
  const flush = async (table: 'members' | 'events', all: boolean) => {
    while (rows.length >= BATCH || (all && rows.length > 0)) {
      await insert(sql, table, rows.slice(0, BATCH));
      rows = rows.slice(BATCH);
    }
  };
  for (const [i, chamber] of plan.chambers.entries()) {
    generateMembers(plan.memberPrng, chamber, plan.memberCounts[i]!, plan.nowMs, (m, emailKey) => {
      rows.push({ ...m, email_key: emailKey });
      counts.members++;
    });
    await flush('members', i === plan.chambers.length - 1);
  }
  for (const [i, chamber] of plan.chambers.entries()) {
    generateEvents(plan.eventPrng, chamber, plan.eventCounts[i]!, plan.nowMs, (e) => {
      rows.push({ ...e });
      counts.events++;
    });
    await flush('events', i === plan.chambers.length - 1);
  }
  return counts;
}
