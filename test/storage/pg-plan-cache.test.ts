// A list walked page by page on PostgreSQL reads each next page by seeking from the last
// one: that statement must keep PostgreSQL's generic plan, not be planned afresh on every
// execution. A bound LIMIT is priced at a tenth of the table, which kept the chambers
// seek on custom plans for good (planning cost the backend more than the seek itself).
// pg_prepared_statements counts, per statement of the connection, the plans of each kind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChamberFilter, MemberFilter } from '../../src/storage/store.js';
import { PgStorage } from '../../src/storage/postgres/pg-storage.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

let db: TestDatabase;
let storage: PgStorage;
let chamberId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  // one connection, so that every statement is prepared where pg_prepared_statements looks
  storage = await PgStorage.open(db.url, { poolSize: 1 });
  const hq = await storage.createChamber(
    { name: 'Cache HQ', type: 'hq', hq_id: null, address: { street: 's', city: 'c', postal_code: null, country: 'DE' } },
    new Date('2025-01-01T00:00:00Z'),
  );
  chamberId = hq.id;
  // enough rows that a tenth of a table is far more than a page (the triggers keep the counts)
  await storage.sql`
    INSERT INTO chambers (id, name, type, hq_id, status, street, city, postal_code, country, created_at)
    SELECT 'ch_plan' || i, 'Chamber ' || i, CASE WHEN i % 5 = 0 THEN 'hq' ELSE 'subsidiary' END,
      CASE WHEN i % 5 = 0 THEN NULL ELSE ${hq.id} END, CASE WHEN i % 3 = 0 THEN 'pending' ELSE 'active' END,
      's', 'c', NULL, 'DE', '2025-02-01T00:00:00.' || lpad((i % 1000)::text, 3, '0') || 'Z'
    FROM generate_series(1, 4000) AS i`;
  await storage.sql`
    INSERT INTO members (id, chamber_id, name, email, email_key, phone, membership_type, status, joined_at)
    SELECT 'mb_plan' || i, ${hq.id}, 'Member ' || i, 'm' || i || '@example.org', 'm' || i || '@example.org', NULL, 'standard',
      CASE WHEN i % 3 = 0 THEN 'pending' ELSE 'active' END, '2025-03-01T00:00:00.' || lpad((i % 1000)::text, 3, '0') || 'Z'
    FROM generate_series(1, 4000) AS i`;
  await storage.sql`ANALYZE`;
}, 60_000);
afterAll(async () => {
  await storage?.close();
  await db?.drop();
});

/** Plans made so far for the connection's statements that read `table` by seeking. */
async function seekPlans(table: string) {
  const rows = await storage.sql<{ statement: string; generic_plans: string; custom_plans: string }[]>`
    SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements`;
  const seeks = rows.filter((r) => r.statement.includes(`FROM ${table} WHERE`) && /\(\w+, id\) [<>] \(\$\d+, \$\d+\)/.test(r.statement));
  return seeks.map((r) => ({ statement: r.statement, generic: Number(r.generic_plans), custom: Number(r.custom_plans) }));
}

describe('PostgreSQL keeps the generic plan of a page-by-page walk', () => {
  const walks: [string, () => Promise<unknown>][] = [
    ['chambers, status filter, by name', () => walk((page) => storage.listChambers({ ...page, status: 'active', sort: { field: 'name', desc: false } } as ChamberFilter))],
    ['chambers, type filter, newest first', () => walk((page) => storage.listChambers({ ...page, type: 'subsidiary', sort: { field: 'created_at', desc: true } } as ChamberFilter))],
    ['members, by name', () => walk((page) => storage.listMembers(chamberId, { ...page, sort: { field: 'name', desc: false } } as MemberFilter))],
  ];
  for (const [name, run] of walks) {
    it(name, async () => {
      const table = name.split(',')[0]!;
      const before = await seekPlans(table);
      await run();
      const after = await seekPlans(table);
      const mine = after.filter((a) => !before.some((b) => b.statement === a.statement));
      // one statement for every seek from the page before, whatever the page
      expect(mine.length).toBe(1);
      const { generic, custom } = mine[0]!;
      expect(generic + custom).toBe(29); // pages 2 to 30
      // PostgreSQL tries five custom plans before it compares them with the generic one
      expect(custom).toBeLessThanOrEqual(5);
      expect(generic).toBeGreaterThanOrEqual(24);
    });
  }
});

async function walk(list: (page: { page: number; perPage: number }) => Promise<{ docs: unknown[] }>) {
  for (let page = 1; page <= 30; page++) {
    const { docs } = await list({ page, perPage: 20 });
    expect(docs).toHaveLength(20);
  }
}
