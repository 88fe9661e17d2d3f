import { afterAll, describe, expect, it } from 'vitest';
import { Storage } from '../../src/storage/sqlite/storage.js';
import { buildFixture } from '../helpers/fixture.js';

// Every filter + sort combination of every list is served by an index that ends in the id
// tie-break: no table scan and no temporary sort b-tree. The plans are read from SQLite by
// recording the statements the storage module actually runs.

const storage = new Storage(':memory:');
const { big, chambers } = await buildFixture(storage, { members: 10 });
for (let i = 0; i < 10; i++) {
  const start = new Date(Date.UTC(2026, 0, 1 + i)).toISOString();
  storage.insertEvent({ id: `ev_${i}`, chamber_id: big.id, title: 'E', status: i % 3 ? 'upcoming' : 'canceled', starts_at: start, ends_at: start, location: null });
}
// Events spread over the chambers, as in any directory: with every event in one chamber,
// ANALYZE tells the planner that a chamber's events are the whole table, and SQLite as built
// into Node.js (without STAT4) then scans those ten rows rather than search an index.
for (const c of chambers.slice(1)) {
  storage.insertEvent({ id: `ev_${c.id}`, chamber_id: c.id, title: 'E', status: 'upcoming', starts_at: '2026-01-01T00:00:00.000Z', ends_at: '2026-01-01T00:00:00.000Z', location: null });
}
storage.db.exec('ANALYZE');
afterAll(() => storage.close());

function plansOf(fn: () => void): string[][] {
  const seen: string[] = [];
  const prepare = storage.db.prepare.bind(storage.db);
  // Capture each SQL statement the storage prepares while `fn` runs.
  (storage.db as { prepare: typeof prepare }).prepare = ((sql: string) => {
    seen.push(sql);
    return prepare(sql);
  }) as typeof prepare;
  // Drop the statement cache so every statement is prepared (and seen) again.
  (storage as unknown as { statements: Map<string, unknown> }).statements.clear();
  try {
    fn();
  } finally {
    (storage.db as { prepare: typeof prepare }).prepare = prepare;
  }
  return seen.map((sql) => {
    const params = (sql.match(/\?|@\w+/g) ?? []).map(() => 'x');
    const rows = storage.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
    return rows.map((r) => r.detail);
  });
}

function expectIndexed(plans: string[][]) {
  expect(plans.length).toBeGreaterThan(0);
  for (const plan of plans) {
    for (const step of plan) {
      expect(step).not.toMatch(/TEMP B-TREE/);
      // A SCAN is only acceptable along an index (a no-filter list read in index order), over
      // chamber_counts, which holds at most one row per type x status (six), or of no table
      // at all (the database's change counters, read for the page boundaries).
      if (/^SCAN /.test(step) && step !== 'SCAN chamber_counts' && step !== 'SCAN CONSTANT ROW' && !step.startsWith('SCAN pragma_data_version')) expect(step).toMatch(/USING (COVERING )?INDEX/);
    }
  }
}

const page = { page: 2, perPage: 1 };
/** Page 2 is read with OFFSET after a write, and by a seek from page 1's last row once page 1 was read. */
const forgetBoundaries = () => storage.db.exec("INSERT INTO sync_done VALUES ('x'); DELETE FROM sync_done");
const chamberSorts = [undefined, 'name', 'created_at'] as const;
const types = [undefined, 'hq', 'subsidiary'] as const;
const statuses = [undefined, 'active', 'pending'] as const;

describe('query plans', () => {
  for (const type of types) {
    for (const status of statuses) {
      for (const field of chamberSorts) {
        for (const desc of field ? [false, true] : [false]) {
          it(`chambers type=${type} status=${status} sort=${desc ? '-' : ''}${field}`, () => {
            const f = { type, status, sort: field && { field, desc } };
            forgetBoundaries();
            const plans = plansOf(() => storage.listChambers({ ...page, ...f }));
            storage.listChambers({ ...f, page: 1, perPage: 1 });
            const seek = plansOf(() => storage.listChambers({ ...page, ...f }));
            expect(seek.flat().join(' ')).not.toEqual(plans.flat().join(' ')); // another statement
            for (const p of [plans, seek]) {
              expectIndexed(p);
              const listPlan = p.find((x) => x.some((s) => /chambers/.test(s)))!;
              if (type || status) expect(listPlan.join(' ')).toMatch(/SEARCH chambers USING (COVERING )?INDEX/);
            }
          });
        }
      }
    }
  }

  const chamberId = big.id;
  for (const status of [undefined, 'active'] as const) {
    for (const field of [undefined, 'name', 'joined_at'] as const) {
      for (const desc of field ? [false, true] : [false]) {
        it(`members status=${status} sort=${desc ? '-' : ''}${field}`, () => {
          const f = { status, sort: field && { field, desc } };
          forgetBoundaries();
          const plans = plansOf(() => storage.listMembers(chamberId, { ...page, ...f }));
          storage.listMembers(chamberId, { ...f, page: 1, perPage: 1 });
          const seek = plansOf(() => storage.listMembers(chamberId, { ...page, ...f }));
          for (const p of [plans, seek]) {
            expectIndexed(p);
            expect(p.flat().join(' ')).toMatch(/SEARCH members USING (COVERING )?INDEX/);
          }
        });
      }
    }
  }

  for (const status of [undefined, 'upcoming', 'past', 'canceled'] as const) {
    for (const window of [{}, { from: '2026-01-01T00:00:00.000Z' }, { to: '2026-02-01T00:00:00.000Z' }, { from: '2026-01-01T00:00:00.000Z', to: '2026-02-01T00:00:00.000Z' }]) {
      it(`events status=${status} window=${JSON.stringify(window)}`, () => {
        const plans = plansOf(() => storage.listEvents(chamberId, { ...page, now: '2026-01-05T12:00:00.000Z', status, ...window }));
        expectIndexed(plans);
        expect(plans.flat().join(' ')).toMatch(/SEARCH events USING (COVERING )?INDEX/);
      });
    }
  }

  it('reads list totals from the count tables, not count(*) over the lists', () => {
    const plans = plansOf(() => {
      storage.listChambers({ ...page, type: 'hq' });
      storage.listMembers(chamberId, { ...page, status: 'active' });
    });
    const text = plans.flat().join('\n');
    expect(text).toMatch(/chamber_counts/);
    expect(text).toMatch(/member_counts/);
  });
});

describe('count tables', () => {
  it('match count(*) after writes of every kind', async () => {
    const s = new Storage(':memory:');
    const { big } = await buildFixture(s, { members: 20 });
    s.db.prepare("UPDATE chambers SET status = 'inactive' WHERE type = 'subsidiary' AND status = 'active'").run();
    s.db.prepare("UPDATE members SET status = 'pending' WHERE rowid % 2 = 0").run();
    s.db.prepare('DELETE FROM members WHERE rowid % 5 = 0').run();
    expect(s.addMember({ chamberId: big.id, input: { name: 'A', email: 'Person1@example.org', membership_type: 'standard', phone: null }, now: new Date(), audit: null })).toBe('duplicate');
    for (const [type, status] of [['hq', 'active'], ['subsidiary', 'inactive'], ['subsidiary', 'active']] as const) {
      const real = (s.db.prepare('SELECT count(*) n FROM chambers WHERE type = ? AND status = ?').get(type, status) as { n: number }).n;
      expect(s.listChambers({ page: 1, perPage: 1, type, status }).total).toBe(real);
    }
    for (const status of ['active', 'pending', 'inactive'] as const) {
      const real = (s.db.prepare('SELECT count(*) n FROM members WHERE chamber_id = ? AND status = ?').get(big.id, status) as { n: number }).n;
      expect(s.listMembers(big.id, { page: 1, perPage: 1, status }).total).toBe(real);
    }
    expect(s.listMembers(big.id, { page: 1, perPage: 1 }).total).toBe(
      (s.db.prepare('SELECT count(*) n FROM members WHERE chamber_id = ?').get(big.id) as { n: number }).n,
    );
    s.close();
  });
});
