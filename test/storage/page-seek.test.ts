import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Sort } from '../../src/contract/index.js';
import { Storage } from '../../src/storage/sqlite/storage.js';
import { buildFixture } from '../helpers/fixture.js';

// Pages read by a seek from the previous page's last row (src/storage/page-boundaries.ts)
// are the pages OFFSET gives, in every order, and a write in between is never missed.
const storage = new Storage(':memory:');
const { big } = await buildFixture(storage, { hqs: 8, subsidiaries: 49, members: 45 });
afterAll(() => storage.close());

const forget = () => storage.db.exec("INSERT INTO sync_done VALUES ('x'); DELETE FROM sync_done");
const walk = (read: (page: number) => string[], pages: number) => Array.from({ length: pages }, (_, i) => read(i + 1)).flat();

describe('pages read by seeking', () => {
  const sorts: (Sort<'name' | 'created_at'> | undefined)[] = [undefined, { field: 'name', desc: false }, { field: 'name', desc: true }, { field: 'created_at', desc: true }];
  for (const sort of sorts) {
    for (const status of [undefined, 'active'] as const) {
      it(`chambers sort=${JSON.stringify(sort)} status=${status}: the same pages as with OFFSET`, () => {
        const read = (page: number) => storage.listChambers({ page, perPage: 4, status, sort }).docs;
        const offsets = Array.from({ length: 16 }, (_, i) => (forget(), read(i + 1))).flat(); // every page cold
        forget();
        const seeks = walk(read, 16); // page n after page n-1: seeks
        expect(seeks).toEqual(offsets);
        expect(new Set(seeks).size).toBe(seeks.length);
        expect(seeks.length).toBe(storage.listChambers({ page: 1, perPage: 100, status, sort }).total);
      });
    }
  }

  it('the page size is written into the statement, so it must be a whole number from 1 to 1000', () => {
    for (const perPage of [0, -1, 1.5, Number.NaN, 1001]) {
      expect(() => storage.listChambers({ page: 1, perPage }), String(perPage)).toThrow(RangeError);
      expect(() => storage.listMembers(big.id, { page: 1, perPage }), String(perPage)).toThrow(RangeError);
    }
    expect(storage.listChambers({ page: 2, perPage: 7 }).docs).toHaveLength(7);
  });

  it('pages read in any order: each from the nearest earlier page read, the pages between skipped', () => {
    const sort = { field: 'name', desc: true } as const;
    const read = (page: number) => storage.listMembers(big.id, { page, perPage: 3, sort }).docs;
    const pages = Math.ceil(storage.listMembers(big.id, { page: 1, perPage: 1 }).total / 3);
    const expected = Array.from({ length: pages }, (_, i) => (forget(), read(i + 1)));
    forget();
    for (const page of [1, 5, 3, 9, 4, 12, 2, 15, 14, 8].filter((n) => n <= pages)) expect(read(page), `page ${page}`).toEqual(expected[page - 1]);
  });

  it('members, names that differ only in case included: the same pages as with OFFSET', () => {
    for (const sort of [{ field: 'name', desc: false }, { field: 'name', desc: true }, { field: 'joined_at', desc: false }] as const) {
      const read = (page: number) => storage.listMembers(big.id, { page, perPage: 4, sort }).docs;
      const offsets = Array.from({ length: 12 }, (_, i) => (forget(), read(i + 1))).flat();
      forget();
      expect(walk(read, 12)).toEqual(offsets);
    }
  });

  it('a write between two pages is seen: the page after it is read afresh', () => {
    const sort = { field: 'name', desc: false } as const;
    forget();
    const first = storage.listMembers(big.id, { page: 1, perPage: 5, sort }).docs;
    // a member whose name sorts first moves every later row by one
    storage.addMember({ chamberId: big.id, input: { name: 'AAA First', email: 'aaa@example.org', phone: null, membership_type: 'standard' }, now: new Date(), audit: null });
    const second = storage.listMembers(big.id, { page: 2, perPage: 5, sort }).docs;
    forget();
    expect(second).toEqual(storage.listMembers(big.id, { page: 2, perPage: 5, sort }).docs);
    expect(second[0]).toBe(first[4]); // shifted by the new first row, as OFFSET paging does
  });

  it("another connection's write (a sync pull, say) is seen too", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chamberctl-seek-'));
    const a = new Storage(join(dir, 'db.sqlite'));
    const b = new Storage(join(dir, 'db.sqlite'));
    try {
      const { big: chamber } = await buildFixture(a, { hqs: 2, subsidiaries: 2, members: 12 });
      const sort = { field: 'name', desc: false } as const;
      const first = a.listMembers(chamber.id, { page: 1, perPage: 4, sort }).docs;
      b.addMember({ chamberId: chamber.id, input: { name: 'AAA Elsewhere', email: 'elsewhere@example.org', phone: null, membership_type: 'standard' }, now: new Date(), audit: null });
      const second = a.listMembers(chamber.id, { page: 2, perPage: 4, sort }).docs;
      expect(second[0]).toBe(first[3]);
    } finally {
      a.close();
      b.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
