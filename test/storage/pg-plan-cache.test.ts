// PostgreSQL's plan cache and the storage's statements (pg-storage.ts, GENERIC_PLANS). The
// pool's connections keep the generic plan of every statement instead of planning list pages
// afresh on every execution; these tests check, on data as skewed as a real directory's (one
// chamber with thousands of members and events, thousands with one or two), that the
// generic plans are used, that each list's generic plan still reads an index in the list's
// order, and that events lists, whose best plan depends on the chamber, are planned for it.
// pg_prepared_statements counts the plans of each kind per statement of a connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChamberFilter, MemberFilter } from '../../src/storage/store.js';
import { PgStorage } from '../../src/storage/postgres/pg-storage.js';
import { createTestDatabase, onDatabase, type TestDatabase } from '../helpers/postgres.js';

let db: TestDatabase;
let storage: PgStorage;
let recorded: { text: string; params: unknown[] }[] = [];
let flagship: string;

beforeAll(async () => {
  db = await createTestDatabase();
  // one connection, so that every statement is prepared where pg_prepared_statements looks
  storage = await PgStorage.open(db.url, { poolSize: 1, onQuery: (text, params) => void recorded.push({ text, params }) });
  const hq = await storage.createChamber({ input: { name: 'Cache HQ', type: 'hq', hq_id: null, address: { street: 's', city: 'c', postal_code: null, country: 'DE' } }, now: new Date('2025-01-01T00:00:00Z'), audit: null });
  flagship = hq.id;
  // the triggers keep the counts; on a connection of its own, without the storage's bounds
  await onDatabase(db.url, async (c) => {
    await c.query(
      `INSERT INTO chambers (id, name, type, hq_id, status, street, city, postal_code, country, created_at)
      SELECT 'ch_plan' || i, 'Chamber ' || i, CASE WHEN i % 5 = 0 THEN 'hq' ELSE 'subsidiary' END,
        CASE WHEN i % 5 = 0 THEN NULL ELSE $1 END, CASE WHEN i % 3 = 0 THEN 'pending' ELSE 'active' END,
        's', 'c', NULL, 'DE', '2025-02-01T00:00:' || lpad((i % 60)::text, 2, '0') || '.' || lpad((i % 1000)::text, 3, '0') || 'Z'
      FROM generate_series(1, 4000) AS i`,
      [hq.id],
    );
    await c.query(
      `INSERT INTO members (id, chamber_id, name, email, email_key, phone, membership_type, status, joined_at)
      SELECT 'mb_plan' || i, CASE WHEN i <= 4000 THEN $1 ELSE 'ch_plan' || (i - 4000) END, 'Member ' || i,
        'm' || i || '@example.org', 'm' || i || '@example.org', NULL, 'standard',
        CASE WHEN i % 3 = 0 THEN 'pending' ELSE 'active' END, '2025-03-01T00:00:00.' || lpad((i % 1000)::text, 3, '0') || 'Z'
      FROM generate_series(1, 8000) AS i`,
      [hq.id],
    );
    await c.query(
      `INSERT INTO events (id, chamber_id, title, status, starts_at, ends_at, location)
      SELECT 'ev_plan' || i, CASE WHEN i <= 3000 THEN $1 ELSE 'ch_plan' || (i - 3000) END, 'Event ' || i,
        CASE WHEN i % 7 = 0 THEN 'canceled' ELSE 'upcoming' END,
        (timestamp '2026-01-01' + i * interval '1 hour')::text, (timestamp '2026-01-01' + i * interval '1 hour' + interval '2 hours')::text, NULL
      FROM generate_series(1, 7000) AS i`,
      [hq.id],
    );
    await c.query('VACUUM ANALYZE');
  });
}, 60_000);
afterAll(async () => {
  await storage?.close();
  await db?.drop();
});

interface Prepared {
  statement: string;
  generic: number;
  custom: number;
}

async function prepared(): Promise<Prepared[]> {
  const rows = await storage.pool.query<{ statement: string; generic_plans: string; custom_plans: string }>(
    'SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements',
  );
  return rows.map((r) => ({ statement: r.statement, generic: Number(r.generic_plans), custom: Number(r.custom_plans) }));
}

/** Runs `fn`; the plans made meanwhile for the statements that read `table`. */
async function plansMade(table: string, fn: () => Promise<unknown>): Promise<Prepared[]> {
  const before = await prepared();
  await fn();
  return (await prepared())
    .filter((p) => p.statement.includes(`FROM ${table}`))
    .map((p) => {
      const b = before.find((x) => x.statement === p.statement);
      return { ...p, generic: p.generic - (b?.generic ?? 0), custom: p.custom - (b?.custom ?? 0) };
    })
    .filter((p) => p.generic + p.custom > 0);
}

async function walk(list: (page: { page: number; perPage: number }) => Promise<{ docs: unknown[] }>, pages = 30) {
  for (let page = 1; page <= pages; page++) {
    const { docs } = await list({ page, perPage: 20 });
    expect(docs).toHaveLength(20);
  }
}

const chambers = (f: Partial<ChamberFilter>) => (page: { page: number; perPage: number }) => storage.listChambers({ ...f, ...page });
const members = (f: Partial<MemberFilter>) => (page: { page: number; perPage: number }) => storage.listMembers(flagship, { ...f, ...page });

describe('PostgreSQL plan cache', () => {
  const walks: [string, string, (page: { page: number; perPage: number }) => Promise<{ docs: unknown[] }>][] = [
    ['chambers, status filter, by name', 'chambers', chambers({ status: 'active', sort: { field: 'name', desc: false } })],
    ['chambers, type filter, newest first', 'chambers', chambers({ type: 'subsidiary', sort: { field: 'created_at', desc: true } })],
    ["members of the largest chamber, by name", 'members', members({ sort: { field: 'name', desc: false } })],
    ["members of the largest chamber, pending, latest first", 'members', members({ status: 'pending', sort: { field: 'joined_at', desc: true } })],
  ];
  for (const [name, table, list] of walks) {
    it(`a page-by-page walk is not planned afresh on every page: ${name}`, async () => {
      const plans = await plansMade(table, () => walk(list));
      // page 1 with OFFSET, then one statement for every seek from the page before
      expect(plans.map((p) => p.generic + p.custom).sort((a, b) => a - b)).toEqual([1, 29]);
      for (const p of plans) expect(p.custom, p.statement).toBe(0);
    });
  }

  it('the generic plan of every chambers and members list reads an index in the list’s order', async () => {
    recorded = [];
    for (const type of [undefined, 'hq', 'subsidiary'] as const) {
      for (const status of [undefined, 'active', 'pending'] as const) {
        for (const field of [undefined, 'name', 'created_at'] as const) {
          for (const desc of field ? [false, true] : [false]) {
            // page 1 (OFFSET), 2 (a seek from page 1), 9 (a seek from page 2 that skips six)
            for (const page of [1, 2, 9]) await storage.listChambers({ page, perPage: 5, type, status, sort: field && { field, desc } });
          }
        }
      }
    }
    for (const status of [undefined, 'active', 'pending'] as const) {
      for (const field of [undefined, 'name', 'joined_at'] as const) {
        for (const desc of field ? [false, true] : [false]) {
          for (const page of [1, 2, 9]) await storage.listMembers(flagship, { page, perPage: 5, status, sort: field && { field, desc } });
        }
      }
    }
    const lists = [...new Map(recorded.filter((q) => / FROM (chambers|members) WHERE| FROM (chambers|members) ORDER/.test(q.text)).map((q) => [q.text, q])).values()];
    // filter values are parameters: 4 filters x 4 orders of chambers and 2 x 4 of members, each
    // read from the start (page 1), by a seek from the page before (2) and by a seek that
    // skips pages (9)
    expect(lists.length).toBe(72);
    for (const q of lists) {
      const nodes = await storage.pool.transaction(async (tx) => {
        await tx.execute('SET LOCAL plan_cache_mode = force_generic_plan');
        await tx.execute(`PREPARE plan_check AS ${q.text}`);
        try {
          const literals = q.params.map((v) => (typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`));
          const [row] = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN (FORMAT JSON) EXECUTE plan_check(${literals.join(', ')})`);
          return nodeTypes((JSON.parse(row!['QUERY PLAN']) as { Plan: PlanNode }[])[0]!.Plan);
        } finally {
          await tx.execute('DEALLOCATE plan_check');
        }
      });
      expect(nodes.filter((n) => n.startsWith('Sort')), q.text).toEqual([]);
      expect(nodes.filter((n) => /^Seq Scan on (chambers|members)$/.test(n)), q.text).toEqual([]);
      expect(nodes.some((n) => /^Index (Only )?Scan( Backward)? on (chambers|members)$/.test(n)), q.text).toBe(true);
      // rows skipped to reach a page's first row are skipped in the index alone
      if (/ OFFSET \$/.test(q.text)) expect(nodes.filter((n) => /^Index Only Scan/.test(n)), q.text).toHaveLength(1);
    }
  });

  it("events lists are planned for the chamber, not with a generic plan", async () => {
    const now = '2026-02-01T00:00:00.000Z';
    const plans = await plansMade('events', async () => {
      for (let i = 0; i < 8; i++) await storage.listEvents(flagship, { page: 1 + i, perPage: 20, now, status: 'upcoming' });
    });
    const page = plans.find((p) => p.statement.includes('ORDER BY starts_at'));
    expect(page, JSON.stringify(plans)).toBeDefined();
    // the default choice: five custom plans first, then whichever is cheaper; never forced generic
    expect(page!.custom).toBeGreaterThanOrEqual(5);
  });
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}
function nodeTypes(n: PlanNode): string[] {
  return [`${n['Node Type']}${n['Relation Name'] ? ` on ${n['Relation Name']}` : ''}`, ...(n.Plans ?? []).flatMap(nodeTypes)];
}
