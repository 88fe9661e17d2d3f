// PostgreSQL reads page n of a list by seeking from page n-1's last row, which each
// instance remembers (countedPage in src/storage/postgres/pg-storage.ts). These pages must
// be the pages OFFSET gives, in every order, and a write by any instance between two pages,
// an insert, a change or a removal, must never be missed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChamberStatus, Sort } from '../../src/contract/index.js';
import { PgStorage } from '../../src/storage/postgres/pg-storage.js';
import { buildFixture } from '../helpers/fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

let db: TestDatabase;
/** The instance under test, and the statements it sends. */
let a: PgStorage;
const sent: string[] = [];
/** Another instance on the same database: the writer, and the reader of OFFSET pages. */
let b: PgStorage;
let bigId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  a = await PgStorage.open(db.url, { poolSize: 2, onQuery: (text) => void sent.push(text) });
  b = await PgStorage.open(db.url, { poolSize: 2 });
  ({ big: { id: bigId } } = await buildFixture(b, { hqs: 8, subsidiaries: 49, members: 45 }));
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await db?.drop();
});

/** Pages 1..n read in order: from page 2 on, each may seek from the one before. */
async function walk(read: (page: number) => Promise<string[]>, pages: number): Promise<string[]> {
  const out: string[] = [];
  for (let page = 1; page <= pages; page++) out.push(...(await read(page)));
  return out;
}

/** The same pages read last to first: no page's predecessor is known yet, so each uses OFFSET. */
async function offsetPages(read: (page: number) => Promise<string[]>, pages: number): Promise<string[]> {
  const out: string[][] = [];
  for (let page = pages; page >= 1; page--) out[page - 1] = await read(page);
  return out.flat();
}

/** A seek's statement compares (sort column, id) with a boundary; it may skip rows after it. */
const isSeek = (text: string) => /\(\w+, id\) [<>] \(\$/.test(text);
/** Statements that read a page with OFFSET from the list's start. */
const offsetsSent = (from: number) => sent.slice(from).filter((t) => / OFFSET \$/.test(t) && !isSeek(t)).length;

describe('PostgreSQL pages read by seeking', () => {
  const sorts: (Sort<'name' | 'created_at'> | undefined)[] = [undefined, { field: 'name', desc: false }, { field: 'name', desc: true }, { field: 'created_at', desc: true }];
  for (const sort of sorts) {
    for (const status of [undefined, 'active'] as (ChamberStatus | undefined)[]) {
      it(`chambers sort=${JSON.stringify(sort)} status=${status}: the same pages as with OFFSET, one OFFSET per walk`, async () => {
        const read = (s: PgStorage) => async (page: number) => (await s.listChambers({ page, perPage: 4, status, sort })).docs;
        const total = (await b.listChambers({ page: 1, perPage: 100, status, sort })).total;
        const pages = Math.ceil(total / 4);
        expect(pages).toBeGreaterThan(4);
        const expected = await offsetPages(read(b), pages);
        const before = sent.length;
        const seeks = await walk(read(a), pages);
        expect(seeks).toEqual(expected);
        expect(new Set(seeks).size).toBe(total);
        expect(seeks.length).toBe(total);
        expect(offsetsSent(before)).toBe(1); // page 1; every later page sought
      });
    }
  }

  it('pages read in any order: each from the nearest earlier page read, the pages between skipped', async () => {
    const sort = { field: 'name', desc: true } as const;
    const read = (s: PgStorage) => async (page: number) => (await s.listMembers(bigId, { page, perPage: 3, sort })).docs;
    const pages = Math.ceil((await b.listMembers(bigId, { page: 1, perPage: 1 })).total / 3);
    const expected = await offsetPages(read(b), pages);
    const order = [1, 5, 3, 9, 4, 12, 2, 15, 14, 8].filter((n) => n <= pages);
    expect(order.length).toBeGreaterThan(6);
    const before = sent.length;
    for (const page of order) expect(await read(a)(page), `page ${page}`).toEqual(expected.slice((page - 1) * 3, page * 3));
    const seeks = sent.slice(before).filter(isSeek).length;
    expect(seeks).toBe(order.length - 1); // every page after the first: from page 1 or a later one read
  });

  it('members, names that differ only in case included: the same pages as with OFFSET', async () => {
    for (const sort of [{ field: 'name', desc: false }, { field: 'name', desc: true }, { field: 'joined_at', desc: true }] as const) {
      const read = (s: PgStorage) => async (page: number) => (await s.listMembers(bigId, { page, perPage: 4, sort })).docs;
      const expected = await offsetPages(read(b), 12);
      const before = sent.length;
      expect(await walk(read(a), 12)).toEqual(expected);
      expect(offsetsSent(before)).toBe(1);
    }
  });

  it("another instance's insert between two pages is seen: the page after it is read afresh", async () => {
    const sort = { field: 'name', desc: false } as const;
    const read = (s: PgStorage, page: number) => s.listMembers(bigId, { page, perPage: 5, sort }).then((r) => r.docs);
    const first = await read(a, 1);
    // a member whose name sorts first moves every later row by one
    await b.addMember({ chamberId: bigId, input: { name: 'AAA First', email: 'aaa-first@example.org', phone: null, membership_type: 'standard' }, now: new Date(), audit: null });
    const second = await read(a, 2);
    expect(second).toEqual(await offsetPages((page) => read(b, page), 2).then((all) => all.slice(5)));
    expect(second[0]).toBe(first[4]); // shifted by the new first row, as OFFSET paging does
  });

  it("another instance's change or removal that leaves the total as it was is seen too", async () => {
    const sort = { field: 'name', desc: true } as const;
    const read = (s: PgStorage, page: number) => s.listMembers(bigId, { page, perPage: 5, sort }).then((r) => r.docs);
    const expectedPage2 = async () => (await offsetPages((page) => read(b, page), 2)).slice(5);

    // a rename, as a `sync pull` refreshing a record does: the same rows, another order (the
    // last member becomes the first, so every other row moves down by one)
    await read(a, 1);
    const [last] = await b.pool.query<{ id: string }>('SELECT id FROM members WHERE chamber_id = $1 ORDER BY name_key, id LIMIT 1', [bigId]);
    // (a name above every other in byte order: 'Zürich' outranks 'zzz' there)
    await b.pool.execute("UPDATE members SET name = '\u{FFDA} Renamed' WHERE id = $1", [last!.id]);
    expect(await read(a, 2)).toEqual(await expectedPage2());

    // in one transaction, the first member removed and one added at the end: the total is
    // unchanged, and every row after the first moves up by one
    await read(a, 1);
    const total = (await b.listMembers(bigId, { page: 1, perPage: 1 })).total;
    await b.pool.transaction(async (tx) => {
      await tx.execute('DELETE FROM members WHERE id = $1', [last!.id]);
      await tx.execute(
        `INSERT INTO members (id, chamber_id, name, email, email_key, phone, membership_type, status, joined_at)
               VALUES ('mb_zzzzzzzzzzzzzzzz', $1, '0 Newcomer', 'new@example.org', 'new@example.org', null, 'standard', 'active', '2025-06-01T00:00:00.000Z')`,
        [bigId],
      );
    });
    expect((await b.listMembers(bigId, { page: 1, perPage: 1 })).total).toBe(total);
    expect(await read(a, 2)).toEqual(await expectedPage2());
  });
});
