// Snapshot export and import (src/snapshot/) on the real storages: a round trip gives back
// the same bytes (records with fields this project does not know included), a bad file is
// refused by line number and leaves the database exactly as it was, and SQLite → PostgreSQL →
// SQLite carries the whole directory. PostgreSQL tests fail (never skip) when it is not
// running, with the hint test/helpers/postgres.ts gives.
import { Readable, Writable } from 'node:stream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Sink } from '../../src/output/sink.js';
import { exportSnapshot } from '../../src/snapshot/export.js';
import { SnapshotError } from '../../src/snapshot/format.js';
import { importSnapshot, type ImportOptions } from '../../src/snapshot/import.js';
import type { SnapshotBackend } from '../../src/storage/snapshot-backend.js';
import { PgStorage } from '../../src/storage/postgres/pg-storage.js';
import { PgSnapshotIo } from '../../src/storage/postgres/snapshot-io.js';
import { seedDemo } from '../../src/storage/seed/index.js';
import { SqliteSnapshotIo } from '../../src/storage/sqlite/snapshot-io.js';
import { Storage } from '../../src/storage/sqlite/storage.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

const NOW = new Date('2025-06-01T12:00:00.000Z');

/**
 * A hand-written snapshot: a subsidiary before its HQ (ids in byte order), records with
 * extra fields (top level and inside the address), another key order, a null phone and
 * postal code, and events of every status.
 */
const FIXTURE = [
  '{"format":"chamberctl-snapshot","version":1}',
  '{"chamber":{"id":"ch_A1","name":"Alpha Chamber","type":"hq","hq_id":null,"status":"active","address":{"street":"1 Main Street","city":"Berlin","postal_code":"10115","country":"DE"},"created_at":"2024-01-02T03:04:05.000Z"}}',
  '{"chamber":{"id":"ch_B2","name":"Beta Chamber","type":"subsidiary","hq_id":"ch_Z9","status":"pending","address":{"street":"2 Side Street","city":"Lyon","postal_code":null,"country":"FR","region":{"name":"Auvergne","code":84}},"created_at":"2024-02-02T03:04:05.000Z","website":"https://beta.example","tags":["x",1,null]}}',
  '{"chamber":{"name":"Zeta Chamber","id":"ch_Z9","type":"hq","hq_id":null,"status":"inactive","address":{"country":"JP","city":"Osaka","street":"9 Bay Road","postal_code":"530-0001"},"created_at":"2024-03-02T03:04:05.000Z"}}',
  '{"member":{"id":"mb_1","chamber_id":"ch_A1","name":"Ann Example","email":"ann@example.org","phone":"+49 30 1234","membership_type":"standard","status":"active","joined_at":"2024-04-01T00:00:00.000Z"}}',
  '{"member":{"id":"mb_2","chamber_id":"ch_B2","name":"Bo Example","email":"Ann@Example.org","phone":null,"membership_type":"premium","status":"pending","joined_at":"2024-04-02T00:00:00.000Z","source":{"crm":"hubspot","ids":[7,8]}}}',
  '{"member":{"id":"mb_3","chamber_id":"ch_A1","name":"Cy Example","email":"cy@example.org","phone":null,"membership_type":"honorary","status":"inactive","joined_at":"2024-04-03T00:00:00.000Z"}}',
  '{"event":{"id":"ev_1","chamber_id":"ch_A1","title":"Spring fair","status":"upcoming","starts_at":"2030-05-01T09:00:00.000Z","ends_at":"2030-05-01T17:00:00.000Z","location":"Hall 1"}}',
  '{"event":{"id":"ev_2","chamber_id":"ch_Z9","title":"Old dinner","status":"past","starts_at":"2020-05-01T18:00:00.000Z","ends_at":"2020-05-01T22:00:00.000Z","location":null,"capacity":120}}',
  '{"event":{"id":"ev_3","chamber_id":"ch_B2","title":"Canceled talk","status":"canceled","starts_at":"2030-06-01T09:00:00.000Z","ends_at":"2030-06-01T10:00:00.000Z","location":"Room 2"}}',
  '{"end":{"chambers":3,"members":3,"events":3}}',
];
const fixture = (lines = FIXTURE) => lines.map((l) => `${l}\n`).join('');

const opened: (Storage | PgStorage)[] = [];
const databases: TestDatabase[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});
afterAll(async () => {
  for (const d of databases.splice(0)) await d.drop();
});

function sqlite(): { storage: Storage; io: SnapshotBackend } {
  const storage = new Storage(':memory:');
  opened.push(storage);
  return { storage, io: new SqliteSnapshotIo(storage, ':memory:') };
}

async function postgres(): Promise<{ pg: PgStorage; io: SnapshotBackend }> {
  const db = await createTestDatabase('chamberctl_snapshot');
  databases.push(db);
  const pg = await PgStorage.open(db.url, { poolSize: 2 });
  opened.push(pg);
  return { pg, io: new PgSnapshotIo(pg.pool, db.url) };
}

async function exportText(io: SnapshotBackend): Promise<string> {
  const chunks: string[] = [];
  const out = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  await exportSnapshot(io, new Sink(out));
  return chunks.join('');
}

const load = (io: SnapshotBackend, text: string, opts: ImportOptions = { replace: false }) => importSnapshot(io, Readable.from([text]), opts);

/** The import's error, which must be a SnapshotError. */
async function refusal(io: SnapshotBackend, text: string, opts: ImportOptions = { replace: false }): Promise<SnapshotError> {
  const err = await load(io, text, opts).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SnapshotError);
  return err as SnapshotError;
}

describe('snapshot on SQLite', () => {
  it('export, import into an empty database, export again: the same bytes', async () => {
    const a = sqlite();
    expect(await load(a.io, fixture())).toEqual({ chambers: 3, members: 3, events: 3 });
    // records as they came (extra fields, key order) are served as they came
    expect(a.storage.getChamber('ch_B2')).toBe(FIXTURE[2]!.slice('{"chamber":'.length, -1));
    expect(a.storage.getChamber('ch_Z9')).toBe(FIXTURE[3]!.slice('{"chamber":'.length, -1));
    expect(a.storage.getChamber('ch_A1')).toBe(FIXTURE[1]!.slice('{"chamber":'.length, -1));
    // canonical records have no raw copy; the others do
    expect(a.storage.db.prepare('SELECT id FROM chambers WHERE raw IS NOT NULL ORDER BY id').pluck().all()).toEqual(['ch_B2', 'ch_Z9']);
    expect(a.storage.db.prepare('SELECT email_key FROM members WHERE id = ?').pluck().get('mb_2')).toBe('ann@example.org');
    expect(a.storage.db.prepare('SELECT synced_run FROM members WHERE synced_run IS NOT NULL').all()).toEqual([]);
    const first = await exportText(a.io);
    expect(first).toBe(fixture());

    const b = sqlite();
    await load(b.io, first);
    expect(await exportText(b.io)).toBe(first);
  });

  it('the lists, totals, indexes and triggers are right after an import', async () => {
    const { storage, io } = sqlite();
    await load(io, fixture());
    expect(storage.listChambers({ page: 1, perPage: 10 }).total).toBe(3);
    expect(storage.listChambers({ page: 1, perPage: 10, type: 'hq' }).total).toBe(2);
    expect(storage.listMembers('ch_A1', { page: 1, perPage: 10 }).docs.map((d) => JSON.parse(d).id)).toEqual(['mb_1', 'mb_3']);
    const events = storage.listEvents('ch_Z9', { page: 1, perPage: 10, now: NOW.toISOString() });
    expect(events.total).toBe(1);
    expect(JSON.parse(events.docs[0]!)).toMatchObject({ id: 'ev_2', status: 'past', capacity: 120 });
    // the count triggers and the indexes are back
    storage.createChamber({ input: { name: 'New', type: 'hq', address: { street: 's', city: 'c', postal_code: null, country: 'DE' } }, now: NOW, audit: null });
    expect(storage.listChambers({ page: 1, perPage: 10 }).total).toBe(4);
    const names = storage.db.prepare("SELECT name FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY name").pluck().all();
    const fresh = new Storage(':memory:');
    expect(names).toEqual(fresh.db.prepare("SELECT name FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY name").pluck().all());
    fresh.close();
    expect(storage.db.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('round trips the demo data byte for byte', async () => {
    const a = sqlite();
    seedDemo(a.storage, { size: 'standard', now: NOW });
    const first = await exportText(a.io);
    expect(first.split('\n').at(-2)).toBe('{"end":{"chambers":200,"members":5000,"events":1000}}');
    const b = sqlite();
    await load(b.io, first);
    expect(await exportText(b.io)).toBe(first);
    const flagship = a.storage.listChambers({ page: 1, perPage: 1 }).docs[0]!;
    const id = JSON.parse(flagship).id as string;
    expect(b.storage.listMembers(id, { page: 3, perPage: 50 })).toEqual(a.storage.listMembers(id, { page: 3, perPage: 50 }));
  });

  it('without --replace, ids already present are refused; with it, the directory is replaced and clients stay', async () => {
    const { storage, io } = sqlite();
    seedDemo(storage, { size: 'standard', now: NOW });
    storage.addClient('cl_keep', 'hash', 'write', NOW);
    await load(io, fixture());
    const before = await exportText(io);
    const err = await refusal(io, fixture());
    expect(err.message).toBe('line 2: chamber ch_A1: that id is already in the database (snapshot import --replace empties it first)');
    expect(await exportText(io)).toBe(before);

    await load(io, fixture(), { replace: true });
    expect(await exportText(io)).toBe(fixture());
    expect(storage.clientCount()).toBe(1);
  });

  it('serve --seed FILE loads only a database never used (no chambers, no clients)', async () => {
    const a = sqlite();
    a.storage.addClient('cl_1', 'hash', 'write', NOW);
    expect(await load(a.io, fixture(), { replace: false, onlyIfUnused: true })).toBeUndefined();
    expect(a.storage.listChambers({ page: 1, perPage: 1 }).total).toBe(0);
    const b = sqlite();
    expect(await load(b.io, fixture(), { replace: false, onlyIfUnused: true })).toEqual({ chambers: 3, members: 3, events: 3 });
  });

  it('adds to a database that has other chambers, with members of chambers already there', async () => {
    const { storage, io } = sqlite();
    const hq = storage.createChamber({ input: { name: 'Existing', type: 'hq', address: { street: 's', city: 'c', postal_code: null, country: 'DE' } }, now: NOW, status: 'active', id: 'ch_existing', audit: null });
    const extra = [
      '{"format":"chamberctl-snapshot","version":1}',
      '{"chamber":{"id":"ch_sub","name":"Sub","type":"subsidiary","hq_id":"ch_existing","status":"active","address":{"street":"s","city":"c","postal_code":null,"country":"DE"},"created_at":"2024-01-01T00:00:00.000Z"}}',
      `{"member":{"id":"mb_x","chamber_id":"${hq.id}","name":"X","email":"x@example.org","phone":null,"membership_type":"standard","status":"active","joined_at":"2024-01-01T00:00:00.000Z"}}`,
      '{"end":{"chambers":1,"members":1,"events":0}}',
    ];
    await load(io, fixture(extra));
    expect(storage.listMembers('ch_existing', { page: 1, perPage: 10 }).total).toBe(1);
    expect(storage.listChambers({ page: 1, perPage: 10 }).total).toBe(2);
    // an address that chamber already has (any case), after other new members: named by its line
    const before = await exportText(io);
    const clash = [
      extra[0]!,
      ...['mb_y1', 'mb_y2', 'mb_y3'].map((id, i) => extra[2]!.replace('"mb_x"', `"${id}"`).replace('x@example.org', i === 2 ? 'X@Example.ORG' : `${id}@example.org`)),
      '{"end":{"chambers":0,"members":3,"events":0}}',
    ];
    expect((await refusal(io, fixture(clash))).message).toBe(
      'line 4: member mb_y3: chamber ch_existing already has a member with the e-mail address X@Example.ORG (addresses compare case-insensitively)',
    );
    expect(await exportText(io)).toBe(before);
  });

  // Each bad file, against a database holding the demo data: refused, named by line, and
  // the database (as an export shows it) untouched, with and without --replace.
  const bad: [string, string[], RegExp][] = [
    ['bad JSON', FIXTURE.with(5, '{"member":{"id":"mb_2",'), /^line 6: not valid JSON$/],
    ['a member failing the contract', FIXTURE.with(6, FIXTURE[6]!.replace('"inactive"', '"retired"')), /^line 7: member: status must be one of: active, inactive, pending$/],
    ['a member without an e-mail', FIXTURE.with(4, FIXTURE[4]!.replace('"email":"ann@example.org",', '')), /^line 5: member: email is required$/],
    ['a missing end line', FIXTURE.slice(0, -1), /^line 11: the file ends without its end line \(truncated\?\)$/],
    ['a duplicate id', [...FIXTURE.slice(0, 6), FIXTURE[5]!, ...FIXTURE.slice(6)], /^line 7: member mb_2: the same id as the line before/],
    ['ids out of order', [FIXTURE[0]!, FIXTURE[3]!, FIXTURE[2]!, FIXTURE[1]!, ...FIXTURE.slice(4)], /^line 3: chamber ch_B2: out of order/],
    ['a dangling hq_id', FIXTURE.with(2, FIXTURE[2]!.replace('"hq_id":"ch_Z9"', '"hq_id":"ch_nope"')), /^line 3: chamber ch_B2: hq_id ch_nope names no chamber$/],
    ['an hq_id naming a subsidiary', FIXTURE.with(2, FIXTURE[2]!.replace('"hq_id":"ch_Z9"', '"hq_id":"ch_B2"')), /^line 3: chamber ch_B2: hq_id ch_B2 names a subsidiary, not an hq$/],
    ['a member of no chamber', FIXTURE.with(6, FIXTURE[6]!.replace('"chamber_id":"ch_A1"', '"chamber_id":"ch_gone"')), /^line 7: member mb_3: chamber_id ch_gone names no chamber$/],
    ['the same address twice in a chamber', FIXTURE.with(6, FIXTURE[6]!.replace('cy@example.org', 'ANN@example.org')), /^line 7: member mb_3: chamber ch_A1 already has a member with the e-mail address ANN@example.org/],
    ['wrong counts in the end line', FIXTURE.with(10, '{"end":{"chambers":3,"members":4,"events":3}}'), /^line 11: the end line counts 3 chambers, 4 members/],
    ['a line after the end', [...FIXTURE, FIXTURE[1]!], /^line 12: a line after the end line$/],
    ['a chamber after the members', [...FIXTURE.slice(0, 5), FIXTURE[1]!.replace('ch_A1', 'ch_A0'), ...FIXTURE.slice(5)], /^line 6: a chamber after the members/],
    ['another format', FIXTURE.with(0, '{"format":"chamberctl-snapshot","version":2}'), /^line 1: snapshot version 2 is not supported/],
  ];
  it.each(bad)('%s: refused by line, the database left as it was', async (_name, lines, message) => {
    const { storage, io } = sqlite();
    seedDemo(storage, { size: 'standard', now: NOW });
    const before = await exportText(io);
    const indexes = storage.db.prepare('SELECT name FROM sqlite_master ORDER BY name').pluck().all();
    for (const replace of [false, true]) {
      const err = await refusal(io, fixture(lines), { replace });
      expect(err.message).toMatch(message);
      expect(await exportText(io)).toBe(before);
      expect(storage.db.prepare('SELECT name FROM sqlite_master ORDER BY name').pluck().all()).toEqual(indexes);
      expect(storage.db.inTransaction).toBe(false);
    }
  });
});

describe('snapshot between SQLite and PostgreSQL', () => {
  it('SQLite → PostgreSQL → SQLite carries the whole directory, byte for byte', async () => {
    const a = sqlite();
    seedDemo(a.storage, { size: 'standard', now: NOW });
    // the fixture's records too (extra fields, all event statuses), under ids of their own
    await load(a.io, fixture(FIXTURE.map((l) => l.replace(/"(ch|mb|ev)_/g, '"$1_zz'))));
    const first = await exportText(a.io);

    const { pg, io } = await postgres();
    expect(await load(io, first)).toEqual({ chambers: 203, members: 5003, events: 1003 });
    expect(await exportText(io)).toBe(first);
    // PostgreSQL serves the same lists (with the totals recomputed) and the raw records
    expect(await pg.getChamber('ch_zzB2')).toBe(a.storage.getChamber('ch_zzB2'));
    expect(await pg.listChambers({ page: 2, perPage: 20, sort: { field: 'name', desc: false } })).toEqual(a.storage.listChambers({ page: 2, perPage: 20, sort: { field: 'name', desc: false } }));
    const f = { page: 1, perPage: 20, now: NOW.toISOString() };
    expect(await pg.listEvents('ch_zzB2', f)).toEqual(a.storage.listEvents('ch_zzB2', f));

    const c = sqlite();
    await load(c.io, await exportText(io));
    expect(await exportText(c.io)).toBe(first);
  });

  it('PostgreSQL refuses a bad file by line and is left as it was', async () => {
    const { pg, io } = await postgres();
    await load(io, fixture());
    await pg.addClient('cl_keep', 'hash', 'write', NOW);
    const before = await exportText(io);
    const cases: [string[], RegExp, boolean][] = [
      [FIXTURE, /^line 2: chamber ch_A1: that id is already in the database/, false],
      [FIXTURE.with(6, FIXTURE[6]!.replace('cy@example.org', 'ANN@example.org')), /^line 7: member mb_3: chamber ch_A1 already has a member with the e-mail address/, true],
      [FIXTURE.with(2, FIXTURE[2]!.replace('"hq_id":"ch_Z9"', '"hq_id":"ch_nope"')), /^line 3: chamber ch_B2: hq_id ch_nope names no chamber$/, true],
      [FIXTURE.slice(0, -1), /^line 11: the file ends without its end line/, true],
    ];
    for (const [lines, message, replace] of cases) {
      const err = await refusal(io, fixture(lines), { replace });
      expect(err.message).toMatch(message);
      expect(await exportText(io)).toBe(before);
    }
    // serve --seed FILE: a database with chambers or clients is left alone
    expect(await load(io, fixture(FIXTURE.map((l) => l.replace(/"(ch|mb|ev)_/g, '"$1_new'))), { replace: false, onlyIfUnused: true })).toBeUndefined();
    expect(await exportText(io)).toBe(before);
    // a member id already present, in a file that adds to the database
    const more = [
      FIXTURE[0]!,
      FIXTURE[4]!.replace('"email":"ann@example.org"', '"email":"new@example.org"'),
      '{"end":{"chambers":0,"members":1,"events":0}}',
    ];
    expect((await refusal(io, fixture(more))).message).toMatch(/^line 2: member mb_1: that id is already in the database/);
    // the foreign keys and count triggers are back after the failures, clients untouched
    expect(await pg.clientCount()).toBe(1);
    await load(io, fixture(), { replace: true });
    expect((await pg.listChambers({ page: 1, perPage: 10 })).total).toBe(3);
    await pg.createChamber({ input: { name: 'New', type: 'hq', address: { street: 's', city: 'c', postal_code: null, country: 'DE' } }, now: NOW, audit: null });
    expect((await pg.listChambers({ page: 1, perPage: 10 })).total).toBe(4);
    const [fk] = await pg.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_constraint WHERE contype = 'f' AND conrelid IN ('chambers'::regclass, 'members'::regclass, 'events'::regclass)");
    expect(fk!.n).toBe(3);
  });
});
