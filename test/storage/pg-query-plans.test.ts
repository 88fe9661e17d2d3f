// The PostgreSQL twin of query-plans.test.ts: every filter + sort combination of every list
// can be read from an index in order, with no sort step and no sequential scan of a
// resource table. The statements are the ones PgStorage really sends (recorded through its
// onQuery hook); each is explained with sequential scans and sorts priced out of the
// planner's reach, so a plan that still has one means no index serves that statement.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgStorage } from '../../src/storage/postgres/pg-storage.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

let db: TestDatabase;
let storage: PgStorage;
let recorded: { text: string; params: unknown[] }[] = [];
let chamberId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  storage = await PgStorage.open(db.url, { poolSize: 2, onQuery: (text, params) => void recorded.push({ text, params }) });
  const hq = await storage.createChamber({ input: { name: 'Plan HQ', type: 'hq', hq_id: null, address: { street: 's', city: 'c', postal_code: null, country: 'DE' } }, now: new Date('2025-01-01T00:00:00Z'), audit: null });
  chamberId = hq.id;
  // two of each type and status, so that page 2 of every filter is read
  for (const type of ['hq', 'subsidiary'] as const) {
    for (const status of ['active', 'inactive', 'pending'] as const) {
      for (let i = 0; i < 2; i++) {
        const input = { name: `C ${type} ${status} ${i}`, type, hq_id: type === 'hq' ? null : hq.id, address: { street: 's', city: 'c', postal_code: null, country: 'DE' } };
        await storage.createChamber({ input, now: new Date(), status, audit: null });
      }
    }
  }
  for (let i = 0; i < 8; i++) {
    await storage.addMember({ chamberId, input: { name: `P${i}`, email: `p${i}@example.org`, phone: null, membership_type: 'standard' }, now: new Date(), status: i % 2 ? 'active' : 'pending', audit: null });
    const start = new Date(Date.UTC(2026, 0, 1 + i)).toISOString();
    await storage.insertEvent({ id: `ev_${i}`, chamber_id: chamberId, title: 'E', status: i < 2 ? 'canceled' : 'upcoming', starts_at: start, ends_at: start, location: null });
  }
  await storage.pool.execute('ANALYZE');
}, 60_000);
afterAll(async () => {
  await storage?.close();
  await db?.drop();
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

/** The plan nodes of every statement `fn` sends (list queries only, not the counters). */
async function plansOf(fn: () => Promise<unknown>): Promise<{ text: string; nodes: PlanNode[] }[]> {
  recorded = [];
  await fn();
  const sent = recorded.filter((q) => /^\s*SELECT/i.test(q.text));
  return storage.pool.transaction(async (tx) => {
    await tx.execute('SET LOCAL enable_seqscan = off');
    await tx.execute('SET LOCAL enable_sort = off');
    const out = [];
    for (const q of sent) {
      const [row] = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN (FORMAT JSON) ${q.text}`, q.params);
      const plan = (JSON.parse(row!['QUERY PLAN']) as { Plan: PlanNode }[])[0]!.Plan;
      out.push({ text: q.text, nodes: nodes(plan) });
    }
    return out;
  });
}

function expectIndexed(plans: { text: string; nodes: PlanNode[] }[], table: string) {
  const lists = plans.filter((p) => p.nodes.some((n) => n['Relation Name'] === table));
  expect(lists.length, `no statement read ${table}`).toBeGreaterThan(0);
  for (const p of plans) {
    const types = p.nodes.map((n) => `${n['Node Type']}${n['Relation Name'] ? ` on ${n['Relation Name']}` : ''}`);
    expect(types.filter((t) => t.startsWith('Sort')), p.text).toEqual([]);
    // only the small counter table of chamber totals (type x status x 16 shards) and the
    // one row of list_generation may be read whole
    expect(types.filter((t) => t.startsWith('Seq Scan') && t !== 'Seq Scan on chamber_counts' && t !== 'Seq Scan on list_generation'), p.text).toEqual([]);
  }
}

/** Page 1 (OFFSET), then page 2, which seeks from page 1's last row: both statements are explained. */
async function pagesOneAndTwo(list: (page: { page: number; perPage: number }) => Promise<unknown>) {
  const plans = await plansOf(async () => {
    await list({ page: 1, perPage: 1 });
    await list({ page: 2, perPage: 1 });
  });
  const seeks = plans.filter((p) => /\(\w+, id\) [<>] \(\$\d+, \$\d+\)/.test(p.text));
  expect(seeks.length).toBe(1);
  expect(plans.filter((p) => / OFFSET \$/.test(p.text) && !seeks.includes(p)).length).toBe(1);
  return plans;
}

const page = { page: 2, perPage: 1 };

describe('PostgreSQL query plans', () => {
  for (const type of [undefined, 'hq', 'subsidiary'] as const) {
    for (const status of [undefined, 'active', 'pending'] as const) {
      for (const field of [undefined, 'name', 'created_at'] as const) {
        for (const desc of field ? [false, true] : [false]) {
          it(`chambers type=${type} status=${status} sort=${desc ? '-' : ''}${field}`, async () => {
            expectIndexed(await pagesOneAndTwo((p) => storage.listChambers({ ...p, type, status, sort: field && { field, desc } })), 'chambers');
          });
        }
      }
    }
  }

  for (const status of [undefined, 'active'] as const) {
    for (const field of [undefined, 'name', 'joined_at'] as const) {
      for (const desc of field ? [false, true] : [false]) {
        it(`members status=${status} sort=${desc ? '-' : ''}${field}`, async () => {
          expectIndexed(await pagesOneAndTwo((p) => storage.listMembers(chamberId, { ...p, status, sort: field && { field, desc } })), 'members');
        });
      }
    }
  }

  for (const status of [undefined, 'upcoming', 'past', 'canceled'] as const) {
    for (const window of [{}, { from: '2026-01-01T00:00:00.000Z' }, { to: '2026-02-01T00:00:00.000Z' }]) {
      it(`events status=${status} window=${JSON.stringify(window)}`, async () => {
        const now = '2026-01-05T12:00:00.000Z';
        expectIndexed(await plansOf(() => storage.listEvents(chamberId, { ...page, now, status, ...window })), 'events');
      });
    }
  }
});
