// The storage side of team administration (docs/guides/team-access.md) on both backends: who made
// each client change (`operator`) and what it set (`detail`), in the audit trail; the step of
// the schema that added those columns, on a database of the chamberctl before it; a scope
// change, refused for a revoked client and recorded only when it changes something; and a
// token that can do no more than its client's scope now allows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres, PG_SCHEMA_VERSION } from '../../src/storage/postgres/migrations.js';
import { PgStorage } from '../../src/storage/postgres/pg-storage.js';
import { PgPool } from '../../src/storage/postgres/pool.js';
import { openDatabase } from '../../src/storage/sqlite/database.js';
import { migrate, SCHEMA_VERSION } from '../../src/storage/sqlite/migrations.js';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import { Storage } from '../../src/storage/sqlite/storage.js';
import { graceText, type DirectoryStore } from '../../src/storage/store.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

const NOW = new Date('2026-11-26T11:18:51.151Z');
const OP = 'alice@build-7';
const BEFORE_OPERATOR = { sqlite: 4, postgres: 5 }; // the schema version without audit.operator and audit.detail

let dir: string;
const dbs: TestDatabase[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'chamberctl-team-changes-'));
});
afterAll(async () => {
  await Promise.all(dbs.map((d) => d.drop()));
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
/** A store as the server and `chamberctl clients` open it, on a new database of `backend`. */
async function newStore(backend: 'sqlite' | 'postgres'): Promise<DirectoryStore> {
  if (backend === 'sqlite') {
    const path = join(dir, `fresh-${++n}.db`);
    return new SqliteStore(new Storage(path), path);
  }
  const db = await createTestDatabase('chamberctl_teamchg');
  dbs.push(db);
  return PgStorage.open(db.url, { poolSize: 2 });
}

/** A database made by the chamberctl before the operator column: a client, its client.add and an HTTP write recorded; then opened by this one. */
async function oldDatabase(backend: 'sqlite' | 'postgres'): Promise<{ store: DirectoryStore; version: () => Promise<number> }> {
  const rows = [
    `INSERT INTO clients (id, secret_hash, created_at, scope) VALUES ('old', 'hash', '2026-01-01T00:00:00.000Z', 'read')`,
    `INSERT INTO audit (at, action, client_id, target) VALUES ('2026-01-01T00:00:00.000Z', 'client.add', NULL, 'old')`,
    `INSERT INTO audit (at, action, client_id, target, request_id, address) VALUES ('2026-01-02T00:00:00.000Z', 'chamber.create', 'old', 'ch_1', 'req-1', '127.0.0.1')`,
  ];
  if (backend === 'sqlite') {
    const path = join(dir, `old-${++n}.db`);
    const raw = openDatabase(path);
    migrate(raw, BEFORE_OPERATOR.sqlite);
    expect(raw.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('audit')).not.toContain('operator');
    for (const sql of rows) raw.exec(sql);
    raw.close();
    const storage = new Storage(path);
    return { store: new SqliteStore(storage, path), version: async () => storage.db.pragma('user_version', { simple: true }) as number };
  }
  const db = await createTestDatabase('chamberctl_teamold');
  dbs.push(db);
  const pool = new PgPool(db.url, { max: 1, bulk: true });
  try {
    await migratePostgres(pool, BEFORE_OPERATOR.postgres);
    for (const sql of rows) await pool.execute(sql);
  } finally {
    await pool.close();
  }
  const store = await PgStorage.open(db.url, { poolSize: 2 });
  return { store, version: async () => (await store.pool.query<{ v: number }>('SELECT max(version)::int AS v FROM schema_migrations'))[0]!.v };
}

describe('graceText: a grace as client.rotate records it, which --grace reads back', () => {
  it.each([
    [0, '0'],
    [1000, '1s'],
    [90_000, '90s'],
    [900_000, '15m'],
    [5_400_000, '90m'],
    [7_200_000, '2h'],
    [86_400_000, '1d'],
    [30 * 86_400_000, '30d'],
    [1500, '1500ms'],
  ])('%d ms is %s', (ms, text) => {
    expect(graceText(ms)).toBe(text);
  });
});

describe.each(['sqlite', 'postgres'] as const)('client changes on %s', (backend) => {
  let store: DirectoryStore;
  beforeAll(async () => {
    store = await newStore(backend);
  }, 30_000);
  afterAll(async () => {
    await store?.close();
  });
  const changesTo = async (id: string) => store.listAudit({ target: id, limit: 100 });

  it('the step of the schema: old records get null operator and detail; the new version is recorded', async () => {
    const old = await oldDatabase(backend);
    try {
      expect(await old.version()).toBe(backend === 'sqlite' ? SCHEMA_VERSION : PG_SCHEMA_VERSION);
      expect(await old.store.listAudit({ limit: 10 })).toEqual([
        { at: '2026-01-02T00:00:00.000Z', action: 'chamber.create', client_id: 'old', operator: null, target: 'ch_1', request_id: 'req-1', address: '127.0.0.1', detail: null },
        { at: '2026-01-01T00:00:00.000Z', action: 'client.add', client_id: null, operator: null, target: 'old', request_id: null, address: null, detail: null },
      ]);
      // and the old database takes the new records
      expect(await old.store.setClientScope('old', 'write', NOW, OP)).toEqual({ changed: true });
      expect((await old.store.listAudit({ limit: 1 }))[0]).toMatchObject({ action: 'client.scope', operator: OP, detail: 'write' });
    } finally {
      await old.store.close();
    }
  }, 30_000);

  it('each client change records who made it and what it set, in the documented order; a write over HTTP neither', async () => {
    expect(await store.addClient('ops', 'hash-1', 'read', NOW, OP)).toMatchObject({ client_id: 'ops', scope: 'read', old_secret_valid_until: null });
    expect(await store.rotateClient('ops', 'hash-2', new Date(NOW.getTime() + 1000), 15 * 60_000, OP)).toEqual({
      old_secret_valid_until: new Date(NOW.getTime() + 1000 + 15 * 60_000).toISOString(),
    });
    await store.rotateClient('ops', 'hash-3', new Date(NOW.getTime() + 2000), 0, 'bob@desk');
    await store.setClientScope('ops', 'write', new Date(NOW.getTime() + 3000), OP);
    const chamber = await store.createChamber({ input: { name: 'Audited', type: 'hq', hq_id: null, address: { street: 's', city: 'c', postal_code: null, country: 'DE' } }, now: new Date(NOW.getTime() + 4000), status: 'active', audit: { clientId: 'ops', address: '10.0.0.1', requestId: 'req-ops' } });
    await store.revokeClient('ops', new Date(NOW.getTime() + 5000), OP);
    const records = (await store.listAudit({ limit: 100 })).filter((r) => r.client_id === 'ops' || r.target === 'ops');
    // the filters of `audit` (issue 43): --client its writes, --target the changes to it, --action
    expect(await store.listAudit({ clientId: 'ops', limit: 100 })).toEqual([records[1]]);
    expect((await store.listAudit({ target: 'ops', limit: 100 })).map((r) => r.action)).toEqual(['client.revoke', 'client.scope', 'client.rotate', 'client.rotate', 'client.add']);
    expect((await store.listAudit({ target: 'ops', actions: ['client.rotate', 'client.add'], limit: 100 })).map((r) => r.action)).toEqual(['client.rotate', 'client.rotate', 'client.add']);
    expect(await store.listAudit({ actions: [], limit: 100 })).toEqual([]);
    expect(records.map((r) => Object.keys(r))).toEqual(records.map(() => ['at', 'action', 'client_id', 'operator', 'target', 'request_id', 'address', 'detail']));
    expect(records.map((r) => [r.action, r.operator, r.detail])).toEqual([
      ['client.revoke', OP, null],
      ['chamber.create', null, null],
      ['client.scope', OP, 'write'],
      ['client.rotate', 'bob@desk', '0'],
      ['client.rotate', OP, '15m'],
      ['client.add', OP, 'read'],
    ]);
    expect(records[1]).toMatchObject({ client_id: 'ops', target: (chamber as { id: string }).id, request_id: 'req-ops', address: '10.0.0.1' });
    // without an operator (a caller that does not know it): null, the detail still there
    await store.addClient('anon', 'hash', 'write', NOW);
    expect((await changesTo('anon'))[0]).toMatchObject({ operator: null, detail: 'write' });
  });

  it('setClientScope: unknown, revoked (nothing changed or recorded), the same scope (nothing recorded), a change (recorded)', async () => {
    expect(await store.setClientScope('nobody', 'read', NOW, OP)).toBe('missing');
    await store.addClient('gone', 'hash', 'write', NOW, OP);
    await store.revokeClient('gone', NOW, OP);
    const goneBefore = await changesTo('gone');
    for (const scope of ['read', 'write'] as const) expect(await store.setClientScope('gone', scope, NOW, OP)).toBe('revoked');
    expect(await changesTo('gone')).toEqual(goneBefore);
    expect((await store.listClients()).find((c) => c.client_id === 'gone')!.scope).toBe('write');

    await store.addClient('edited', 'hash', 'write', NOW, OP);
    expect(await store.setClientScope('edited', 'write', NOW, OP)).toEqual({ changed: false });
    expect((await changesTo('edited')).map((r) => r.action)).toEqual(['client.add']);
    expect(await store.setClientScope('edited', 'read', NOW, OP)).toEqual({ changed: true });
    expect((await store.listClients()).find((c) => c.client_id === 'edited')!.scope).toBe('read');
    expect((await changesTo('edited')).map((r) => `${r.action} ${r.detail}`)).toEqual(['client.scope read', 'client.add write']);
  });

  it("a token's scope is the lesser of its own and its client's: read takes the writes away, write gives back no more than it was issued with", async () => {
    await store.addClient('tok', 'hash', 'write', NOW, OP);
    const writeToken = Buffer.from(`write-token-${backend}`);
    const readToken = Buffer.from(`read-token-${backend}`);
    const expires = Date.now() + 3_600_000;
    expect(await store.saveToken(writeToken, 'tok', 'v2', expires, 'write')).toBe(true);
    expect(await store.saveToken(readToken, 'tok', 'v2', expires, 'read')).toBe(true);
    const scopes = async () => [(await store.findToken(writeToken))?.scope, (await store.findToken(readToken))?.scope];
    expect(await scopes()).toEqual(['write', 'read']);
    await store.setClientScope('tok', 'read', NOW, OP);
    expect(await scopes()).toEqual(['read', 'read']);
    await store.setClientScope('tok', 'write', NOW, OP);
    expect(await scopes()).toEqual(['write', 'read']);
  });

  it('listClients carries old_secret_valid_until as stored, after the other fields', async () => {
    await store.addClient('rot', 'hash', 'write', NOW, OP);
    await store.rotateClient('rot', 'hash-2', NOW, 90_000, OP);
    const rot = (await store.listClients()).find((c) => c.client_id === 'rot')!;
    expect(Object.keys(rot)).toEqual(['client_id', 'scope', 'created_at', 'last_used_at', 'revoked_at', 'old_secret_valid_until']);
    expect(rot.old_secret_valid_until).toBe(new Date(NOW.getTime() + 90_000).toISOString());
  });
});
