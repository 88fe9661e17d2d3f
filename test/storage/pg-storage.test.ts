// The PostgreSQL storage against the real server (test/helpers/postgres.ts), checked against
// the SQLite storage holding the same rows: every list, filter, sort and page must come back
// byte for byte the same, with the same totals. Plus what only a shared database has to
// guarantee: migrations that run once when instances start together, and the per-chamber
// e-mail rule and the totals under concurrent writers on several connection pools.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChamberStatus, MemberStatus } from '../../src/contract/index.js';
import { PgStorage } from '../../src/storage/postgres/pg-storage.js';
import { PG_SCHEMA_VERSION } from '../../src/storage/postgres/migrations.js';
import { Storage } from '../../src/storage/sqlite/storage.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

const STATUSES = ['active', 'inactive', 'pending'] as const;
const NAMES = ['Bremen', 'aachen', 'Zürich', 'Lyon', 'Osaka', 'Bremen', 'Lima', 'oslo', 'ÄGYPTEN', 'école'];

let db: TestDatabase;
let pg: PgStorage;
let lite: Storage;
let chamberIds: string[];
let bigId: string;

/** The same rows in both: names and times repeat on purpose, so sorts need the id tie-break. */
async function fill() {
  const base = Date.parse('2025-01-01T00:00:00Z');
  const at = (i: number) => new Date(base + Math.floor(i / 3) * 60_000);
  const hqs: string[] = [];
  chamberIds = [];
  for (let i = 0; i < 60; i++) {
    const isHq = i < 9;
    const id = `ch_${String(1000 + ((i * 37) % 60)).padStart(6, '0')}`; // ids not in insertion order
    const input = {
      name: `${NAMES[i % NAMES.length]} Chamber`,
      type: isHq ? ('hq' as const) : ('subsidiary' as const),
      hq_id: isHq ? null : hqs[i % hqs.length]!,
      address: { street: `${i} Main Street`, city: NAMES[i % NAMES.length]!, postal_code: i % 2 ? null : '10115', country: 'DE' },
    };
    const status: ChamberStatus = STATUSES[i % 3]!;
    lite.createChamber({ input, now: at(i), status, id, audit: null });
    await pg.createChamber({ input, now: at(i), status, id, audit: null });
    if (isHq) hqs.push(id);
    chamberIds.push(id);
  }
  bigId = hqs[0]!;
  for (let i = 0; i < 70; i++) {
    const input = { name: `${NAMES[i % NAMES.length]} Person`, email: `Person${i}@Example.org`, phone: i % 4 ? null : '+32 2 555 01 01', membership_type: 'standard' as const };
    const status: MemberStatus = STATUSES[i % 3]!;
    const id = `mb_${String((i * 53) % 70).padStart(6, '0')}`;
    lite.addMember({ chamberId: bigId, input, now: at(i), status, id, audit: null });
    await pg.addMember({ chamberId: bigId, input, now: at(i), status, id, audit: null });
  }
  for (let i = 0; i < 30; i++) {
    const start = new Date(base + (i - 10) * 86_400_000);
    const event = {
      id: `ev_${String((i * 7) % 30).padStart(6, '0')}`,
      chamber_id: bigId,
      title: `Event ${i}`,
      status: (['upcoming', 'past', 'canceled'] as const)[i % 3]!,
      starts_at: start.toISOString(),
      ends_at: new Date(start.getTime() + 3 * 86_400_000).toISOString(),
      location: i % 2 ? 'Ghent' : null,
    };
    lite.insertEvent(event);
    await pg.insertEvent(event);
  }
}

beforeAll(async () => {
  db = await createTestDatabase();
  pg = await PgStorage.open(db.url, { poolSize: 4 });
  lite = new Storage(':memory:');
  await fill();
}, 60_000);
afterAll(async () => {
  lite?.close();
  await pg?.close();
  await db?.drop();
});

describe('PgStorage answers exactly as the SQLite storage', () => {
  it('every chamber list: each filter, sort and page, the same documents and totals', async () => {
    for (const type of [undefined, 'hq', 'subsidiary'] as const) {
      for (const status of [undefined, ...STATUSES]) {
        for (const sort of [undefined, ...(['name', 'created_at'] as const).flatMap((field) => [{ field, desc: false }, { field, desc: true }])]) {
          for (const page of [1, 2, 3, 9]) {
            const f = { type, status, sort, page, perPage: 7 };
            expect(await pg.listChambers(f), JSON.stringify(f)).toEqual(lite.listChambers(f));
          }
        }
      }
    }
  });

  it('member lists and events, with every filter and sort', async () => {
    for (const status of [undefined, ...STATUSES]) {
      for (const sort of [undefined, ...(['name', 'joined_at'] as const).flatMap((field) => [{ field, desc: false }, { field, desc: true }])]) {
        for (const page of [1, 2, 4]) {
          const f = { status, sort, page, perPage: 11 };
          expect(await pg.listMembers(bigId, f), JSON.stringify(f)).toEqual(lite.listMembers(bigId, f));
        }
      }
    }
    // statuses judged at several moments: before, among and after the events
    for (const now of ['2024-12-01T00:00:00.000Z', '2025-01-04T12:00:00.000Z', '2025-03-01T00:00:00.000Z']) {
      for (const status of [undefined, 'upcoming', 'past', 'canceled'] as const) {
        for (const window of [{}, { from: '2025-01-05T00:00:00.000Z' }, { to: '2025-01-03T00:00:00.000Z' }, { from: '2024-12-28T00:00:00.000Z', to: '2025-01-02T00:00:00.000Z' }]) {
          const f = { now, status, ...window, page: 1, perPage: 100 };
          expect(await pg.listEvents(bigId, f), JSON.stringify(f)).toEqual(lite.listEvents(bigId, f));
        }
      }
    }
  });

  it('single records, types, and what is absent', async () => {
    for (const id of chamberIds.slice(0, 12)) {
      expect(await pg.getChamber(id)).toBe(lite.getChamber(id));
      expect(await pg.chamberType(id)).toBe(lite.chamberType(id));
    }
    expect(await pg.getChamber('ch_nope')).toBeUndefined();
    expect(await pg.chamberType('ch_nope')).toBeUndefined();
    const [first] = lite.listMembers(bigId, { page: 1, perPage: 1 }).docs.map((d) => JSON.parse(d) as { id: string });
    expect(await pg.getMember(bigId, first!.id)).toBe(lite.getMember(bigId, first!.id));
    expect(await pg.getMember(chamberIds[5]!, first!.id)).toBeUndefined();
  });

  it('a member of a chamber that does not exist is refused, as in SQLite, and nothing is written', async () => {
    const input = { name: 'Nobody', email: 'nobody@example.org', phone: null, membership_type: 'standard' as const };
    const before = await pg.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM members');
    expect(await pg.addMember({ chamberId: 'ch_nope', input, now: new Date(), audit: null })).toBe('no-chamber');
    expect(lite.addMember({ chamberId: 'ch_nope', input, now: new Date(), audit: null })).toBe('no-chamber');
    const idem = { clientId: 'c', key: 'k-no-chamber', requestHash: 'h', nowMs: Date.now(), location: (id: string) => `/x/${id}` };
    expect(await pg.addMember({ chamberId: 'ch_nope', input, now: new Date(), idem, audit: null })).toBe('no-chamber');
    expect(lite.addMember({ chamberId: 'ch_nope', input, now: new Date(), idem, audit: null })).toBe('no-chamber');
    expect(await pg.findAnswer('c', 'k-no-chamber', Date.now())).toBeUndefined();
    expect(lite.findAnswer('c', 'k-no-chamber', Date.now())).toBeUndefined();
    const after = await pg.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM members');
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('a duplicate e-mail in any case is refused, as in SQLite', async () => {
    const input = { name: 'Again', email: 'PERSON1@example.ORG', phone: null, membership_type: 'premium' as const };
    expect(await pg.addMember({ chamberId: bigId, input, now: new Date(), audit: null })).toBe('duplicate');
    expect(lite.addMember({ chamberId: bigId, input, now: new Date(), audit: null })).toBe('duplicate');
  });

  it('clients and tokens', async () => {
    expect(await pg.isUnused()).toBe(false); // it has chambers
    expect(await pg.addClient('client1', 'hash-1', 'write', new Date())).toMatchObject({ client_id: 'client1', scope: 'write' });
    expect(await pg.addClient('client1', 'hash-2', 'read', new Date())).toBe('exists');
    expect(await pg.clientAuth('client1')).toMatchObject({ secretHash: 'hash-1', scope: 'write' });
    expect(await pg.clientCount()).toBe(1);
    const hash = Buffer.alloc(32, 7);
    expect(await pg.saveToken(hash, 'client1', 'v2', 2_000_000_000_000, 'read')).toBe(true);
    expect(await pg.findToken(hash)).toEqual({ version: 'v2', expiresAt: 2_000_000_000_000, clientId: 'client1', scope: 'read' });
    expect(await pg.purgeExpiredTokens(1_999_999_999_999)).toBe(0);
    expect(await pg.purgeExpiredTokens(2_000_000_000_000)).toBe(1);
    expect(await pg.findToken(hash)).toBeUndefined();
  });
});

describe('PgStorage connections', () => {
  it('lookups, lists and writes share the one pool: never more connections than its size, and its counters say so', async () => {
    const url = new URL(db.url);
    url.searchParams.set('application_name', 'chamberctl_shared_pool');
    const own = await PgStorage.open(url.toString(), { poolSize: 3 });
    const backends = async () =>
      (await pg.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'chamberctl_shared_pool'"))[0]!.n;
    try {
      const stats: ReturnType<PgStorage['poolStats']>[] = [];
      let loading = true;
      const watch = (async () => {
        while (loading) {
          stats.push(own.poolStats());
          await new Promise((r) => setImmediate(r));
        }
      })();
      const found = await Promise.all([
        ...Array.from({ length: 24 }, (_, i) => (i % 3 ? own.getChamber(chamberIds[i]!) : own.getMember(bigId, `mb_${String(i).padStart(6, '0')}`))),
        ...Array.from({ length: 12 }, (_, i) => own.listChambers({ page: 1 + (i % 4), perPage: 5 })),
      ]).finally(() => (loading = false));
      await watch;
      expect(found.every((x) => x !== undefined)).toBe(true);
      expect(await own.chamberType(chamberIds[0]!)).toBe('hq');
      // 36 asked for a connection at once: the pool opened its 3, the others waited for one
      expect(Math.max(...stats.map((s) => s.open))).toBe(3);
      expect(Math.max(...stats.map((s) => s.waiting))).toBeGreaterThan(20);
      expect(own.poolStats()).toEqual({ open: 3, idle: 3, waiting: 0 });
      expect(await backends()).toBe(3);
    } finally {
      await own.close();
    }
    // the server ends a backend a moment after its socket closes
    for (let i = 0; i < 100 && (await backends()) > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await backends()).toBe(0);
  });
});

describe('PgStorage shared by several instances', () => {
  it('instances starting together on a new database migrate it once', async () => {
    const fresh = await createTestDatabase();
    try {
      const instances = await Promise.all([1, 2, 3, 4].map(() => PgStorage.open(fresh.url, { poolSize: 2 })));
      const versions = await instances[0]!.pool.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(versions.map((v) => v.version)).toEqual(Array.from({ length: PG_SCHEMA_VERSION }, (_, i) => i + 1));
      expect(await instances[3]!.isUnused()).toBe(true);
      await Promise.all(instances.map((i) => i.close()));
    } finally {
      await fresh.drop();
    }
  });

  it('concurrent adds of one address through two instances: exactly one is stored', async () => {
    const other = await PgStorage.open(db.url, { poolSize: 4 });
    try {
      const chamber = chamberIds[20]!;
      const input = { name: 'Racer', email: 'race@example.org', phone: null, membership_type: 'standard' as const };
      const results = await Promise.all(
        Array.from({ length: 16 }, (_, i) => (i % 2 ? pg : other).addMember({ chamberId: chamber, input: { ...input, email: i % 3 ? 'race@example.org' : 'RACE@example.org' }, now: new Date(), audit: null })),
      );
      expect(results.filter((r) => r !== 'duplicate')).toHaveLength(1);
      expect((await pg.listMembers(chamber, { page: 1, perPage: 100 })).total).toBe(1);
    } finally {
      await other.close();
    }
  });

  it('totals stay exact under concurrent writers on several pools', async () => {
    const pools = await Promise.all([1, 2].map(() => PgStorage.open(db.url, { poolSize: 4 })));
    try {
      const chamber = chamberIds[30]!;
      const before = (await pg.listChambers({ page: 1, perPage: 1 })).total;
      await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          pools[i % 2]!.addMember({ chamberId: chamber, input: { name: `W${i}`, email: `w${i}@example.org`, phone: null, membership_type: 'standard' }, now: new Date(), status: STATUSES[i % 3], audit: null }),
        ),
      );
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          pools[i % 2]!.createChamber({ input: { name: `New ${i}`, type: 'hq', hq_id: null, address: { street: 's', city: 'c', postal_code: null, country: 'BE' } }, now: new Date(), audit: null }),
        ),
      );
      const [{ n }] = (await pg.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM members WHERE chamber_id = $1', [chamber])) as [{ n: number }];
      expect(n).toBe(200);
      expect((await pg.listMembers(chamber, { page: 1, perPage: 1 })).total).toBe(200);
      const byStatus = await pg.pool.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM members WHERE chamber_id = $1 GROUP BY status', [chamber]);
      expect(byStatus).toHaveLength(3);
      for (const { status, n: count } of byStatus) {
        expect((await pg.listMembers(chamber, { status: status as MemberStatus, page: 1, perPage: 1 })).total).toBe(count);
      }
      expect((await pg.listChambers({ page: 1, perPage: 1 })).total).toBe(before + 40);
    } finally {
      await Promise.all(pools.map((p) => p.close()));
    }
  });
});
