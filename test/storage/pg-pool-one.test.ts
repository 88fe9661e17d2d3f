// `--pool-size 1` on PostgreSQL: everything works on one connection. No code may hold a
// connection and ask the pool for another (that would wait for itself): the demo seed, a
// snapshot load and export, a sync copy's pull and push steps, and the requests of `serve`.
import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chamber, Event, Member } from '../../src/contract/index.js';
import { Sink } from '../../src/output/sink.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { exportSnapshot } from '../../src/snapshot/export.js';
import { importSnapshot } from '../../src/snapshot/import.js';
import { PgStorage } from '../../src/storage/postgres/pg-storage.js';
import { PgSnapshotIo } from '../../src/storage/postgres/snapshot-io.js';
import { PgSyncCopy } from '../../src/storage/postgres/sync-copy.js';
import { call } from '../helpers/http.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

const databases: TestDatabase[] = [];
const closing: (() => Promise<unknown>)[] = [];
async function database(): Promise<TestDatabase> {
  const db = await createTestDatabase('chamberctl_one');
  databases.push(db);
  return db;
}
afterAll(async () => {
  for (const close of closing) await close();
  for (const db of databases) await db.drop();
});

describe('PostgreSQL with a pool of one connection', () => {
  let server: RunningServer;
  let token: string;
  beforeAll(async () => {
    const db = await database();
    server = await startServer({ host: '127.0.0.1', port: 0, dbPath: db.url, poolSize: 1, seed: 'demo', clientId: 'one', clientSecret: 'OneSecret0123456789abcdef' });
    closing.push(() => server.close());
    const t = await call(server.baseUrl, 'POST', '/v2/auth/token', { body: { grant_type: 'client_credentials', client_id: 'one', client_secret: 'OneSecret0123456789abcdef' } });
    token = t.body.access_token as string;
  });

  it('serve seeds the demo data and answers lists, lookups, events and writes at once', async () => {
    expect(server.seeded?.chambers).toBeGreaterThan(0);
    const [chamber] = (await call(server.baseUrl, 'GET', '/v2/chambers?per_page=1', { token })).body.data as { id: string }[];
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        [
          () => call(server.baseUrl, 'GET', `/v2/chambers?page=${1 + i}`, { token }),
          () => call(server.baseUrl, 'GET', `/v2/chambers/${chamber!.id}`, { token }),
          () => call(server.baseUrl, 'GET', `/v2/chambers/${chamber!.id}/events?status=upcoming`, { token }),
          () => call(server.baseUrl, 'POST', `/v2/chambers/${chamber!.id}/members`, { token, body: { name: `One ${i}`, email: `one${i}@example.org`, membership_type: 'standard' } }),
        ][i % 4]!(),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 12 }, (_, i) => (i % 4 === 3 ? 201 : 200)));
    expect(server.store.poolStats?.().open).toBe(1);
  });

  it('a snapshot is exported and loaded into another database', async () => {
    const from = server.store as PgStorage;
    const chunks: string[] = [];
    const out = new Writable({
      write(chunk, _enc, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    await exportSnapshot(new PgSnapshotIo(from.pool, from.location), new Sink(out));
    const db = await database();
    const into = await PgStorage.open(db.url, { poolSize: 1 });
    closing.push(() => into.close());
    const counts = await importSnapshot(new PgSnapshotIo(into.pool, into.location), Readable.from([chunks.join('')]), { replace: false });
    expect(counts?.chambers).toBe(server.seeded!.chambers);
    expect((await into.listChambers({ page: 1, perPage: 5 })).total).toBe(server.seeded!.chambers);
  });
});

describe('a sync copy on PostgreSQL with a pool of one connection', () => {
  it('pulls (the chamber list in its own transaction), refreshes, settles and discards', async () => {
    const db = await database();
    const copy = new PgSyncCopy(await PgStorage.open(db.url, { poolSize: 1, bulk: true }));
    closing.push(() => copy.close());
    const address = { street: 's', city: 'c', postal_code: null, country: 'DE' };
    const hq: Chamber = { id: 'ch_hq', name: 'HQ', type: 'hq', hq_id: null, status: 'active', address, created_at: '2025-01-01T00:00:00.000Z' };
    const sub: Chamber = { ...hq, id: 'ch_sub', name: 'Sub', type: 'subsidiary', hq_id: 'ch_hq' };
    const member: Member = { id: 'mb_1', chamber_id: 'ch_hq', name: 'Ann', email: 'ann@example.org', phone: null, membership_type: 'standard', status: 'active', joined_at: '2025-01-02T00:00:00.000Z' };
    const event: Event = { id: 'ev_1', chamber_id: 'ch_hq', title: 'Fair', status: 'upcoming', starts_at: '2030-01-01T00:00:00.000Z', ends_at: '2030-01-02T00:00:00.000Z', location: null };

    const run = await copy.startRun({ profile: 'remote', base_url: 'http://remote.example' });
    await copy.beginChamberList();
    await copy.upsertChambers([sub], run); // its HQ comes on a later page
    await copy.upsertChambers([hq], run);
    await copy.endChamberList(true);
    expect(await copy.runProgress(run)).toEqual({ seen: 2, done: 0 });
    for (const id of await copy.chambersToVisit(run, '', 10)) {
      if (id === 'ch_hq') {
        await copy.upsertMembers([member], run);
        await copy.upsertEvents([event], run);
      }
      await copy.finishChamber(id, run, true);
    }
    expect(await copy.finishRun(run, '2025-06-01T00:00:00.000Z', true)).toEqual([]);
    expect(await copy.counts()).toEqual({ chambers: 2, members: 1, events: 1 });
    expect((await copy.state()).lastRun).toBe(run);

    // a local change through the storage, settled with the remote's record, and one discarded
    const local = await copy.pg.createChamber({ input: { name: 'Local', type: 'hq', address }, now: new Date('2025-07-01T00:00:00Z'), audit: null });
    const other = await copy.pg.createChamber({ input: { name: 'Other', type: 'hq', address }, now: new Date('2025-07-01T00:00:00Z'), audit: null });
    const [change, second] = await copy.changes();
    expect(change!.record_id).toBe(local.id);
    await copy.markAttempted(change!.id, '2025-07-02T00:00:00.000Z', 2);
    await copy.settleChamber((await copy.change(change!.id))!, { ...local, id: 'ch_remote' });
    expect(await copy.pg.getChamber('ch_remote')).toBeDefined();
    expect(await copy.discard(second!.id)).toBe('discarded');
    expect(await copy.pg.getChamber(other.id)).toBeUndefined();
    expect(await copy.changes()).toEqual([]);
    expect(copy.pg.poolStats().open).toBe(1);
  });
});
