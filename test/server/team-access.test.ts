// Team access on the server (docs/guides/team-access.md;
// docs/server-behaviour.md#tokens): scopes, revocation and rotation seen by a second instance on
// the same database, last use written at most once a minute, and an audit record for each accepted
// write. On both backends: two in-process servers on one SQLite file, or on one PostgreSQL
// database.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localOperator } from '../../src/core/operator.js';
import { RECHECK_MS } from '../../src/server/auth/bearer.js';
import { hashSecret } from '../../src/server/auth/secrets.js';
import { openDatabase } from '../../src/storage/open.js';
import { PgStorage } from '../../src/storage/postgres/pg-storage.js';
import type { DirectoryStore, Scope } from '../../src/storage/store.js';
import { call } from '../helpers/http.js';
import { createTestDatabase, onDatabase, type TestDatabase } from '../helpers/postgres.js';
import { noteSecret } from '../helpers/run-logs.js';
import { startTestServer, TEST_BACKEND, type TestServer } from '../helpers/server.js';

let db: TestDatabase | undefined;
let dir: string;
let dbPath: string;
let a: TestServer;
let b: TestServer;
/** The database as `chamberctl clients` opens it: a third connection, like another process. */
let admin: DirectoryStore;
// the servers' clock: real time plus what a test adds (last use is judged by it)
let skewMs = 0;
const now = () => new Date(Date.now() + skewMs);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chamberctl-team-'));
  if (TEST_BACKEND === 'postgres') db = await createTestDatabase('chamberctl_team');
  dbPath = db?.url ?? join(dir, 'team.db');
  a = await startTestServer({ dbPath, now });
  b = await startTestServer({ dbPath, now, seed: 'none' });
  admin = (await openDatabase(dbPath, {}, { poolSize: 2, bulk: true })).store;
}, 60_000);
afterAll(async () => {
  await admin?.close();
  await a?.close();
  await b?.close();
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

let clients = 0;
/** A new client in the database, as `chamberctl clients add` makes one. */
async function newClient(scope: Scope): Promise<{ id: string; secret: string }> {
  const id = `team${++clients}${scope}`;
  const secret = `Secret${clients}abcdefghijklmnopqrstuvwxyz0123`;
  noteSecret(secret);
  expect(await admin.addClient(id, await hashSecret(secret), scope, new Date())).not.toBe('exists');
  return { id, secret };
}

async function tokenFor(s: TestServer, c: { id: string; secret: string }, scope?: string) {
  return call(s.baseUrl, 'POST', '/v2/auth/token', {
    body: { grant_type: 'client_credentials', client_id: c.id, client_secret: c.secret, ...(scope !== undefined && { scope }) },
  });
}
async function token(s: TestServer, c: { id: string; secret: string }, scope?: string): Promise<string> {
  const r = await tokenFor(s, c, scope);
  expect(r.status).toBe(200);
  return r.body.access_token;
}

const chamberBody = () => ({ name: `Team ${Math.random().toString(36).slice(2)}`, type: 'hq', address: { street: 'Meir 1', city: 'Antwerp', country: 'BE' } });
const memberBody = (n: number | string) => ({ name: `Member ${n}`, email: `member${n}@team.example`, membership_type: 'standard' });

async function anyChamber(t: string): Promise<string> {
  return (await call(a.baseUrl, 'GET', '/v2/chambers?per_page=1', { token: t })).body.data[0].id;
}
async function count(table: string): Promise<number> {
  return (await a.rows(table)).length;
}

/** Polls `check` every 20 ms until it is true; returns how long that took (ms), or -1 after `limitMs`. */
async function timeUntil(check: () => Promise<boolean>, limitMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < limitMs) {
    if (await check()) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 20));
  }
  return -1;
}

describe('scopes', () => {
  it('a read client gets read tokens; asking for more, or for a scope that does not exist, is 400 invalid_scope', async () => {
    const reader = await newClient('read');
    const r = await tokenFor(a, reader);
    expect(r.status).toBe(200);
    expect(r.body.scope).toBe('read');
    for (const scope of ['write', 'read write', 'admin', '']) {
      const refused = await tokenFor(a, reader, scope);
      expect(refused.status, scope).toBe(400);
      expect(refused.body.error).toBe('invalid_scope');
    }
    expect((await tokenFor(a, reader, 'read')).body.scope).toBe('read');
  });

  it('a write client gets write unless it asks for read only', async () => {
    const writer = await newClient('write');
    expect((await tokenFor(a, writer)).body.scope).toBe('write');
    expect((await tokenFor(a, writer, 'read')).body.scope).toBe('read');
    expect((await tokenFor(a, writer, 'read write')).body.scope).toBe('write');
  });

  it('every write route refuses a read token with 403 insufficient_scope, before the body, creating nothing; every read works', async () => {
    const reader = await newClient('read');
    const t = await token(b, reader);
    const chamber = await anyChamber(t);
    const before = await Promise.all(['chambers', 'members', 'audit'].map(count));
    // every operation of the published documents that changes data, so a new one is covered
    // by construction: a body for it must be named here, or this test fails saying which
    const bodies: Record<string, unknown> = { createChamber: chamberBody(), addMember: memberBody('scoped') };
    const writes: Array<{ path: string; method: string; body: unknown }> = [];
    for (const version of ['v1', 'v2']) {
      const doc = (await call(b.baseUrl, 'GET', `/${version}/openapi.json`)).body as {
        paths: Record<string, Record<string, { operationId: string; security?: unknown[] }>>;
      };
      for (const [template, operations] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(operations)) {
          if (['get', 'head', 'servers', 'parameters'].includes(method) || op.operationId === 'issueToken') continue;
          expect(Object.keys(bodies), `a body for ${op.operationId} (${method.toUpperCase()} ${template}): add one above`).toContain(op.operationId);
          writes.push({ method: method.toUpperCase(), path: `/${version}${template.replace(/\{[^}]+\}/g, chamber)}`, body: bodies[op.operationId] });
        }
      }
    }
    expect(writes.map((w) => `${w.method} ${w.path}`)).toEqual([`POST /v2/chambers`, `POST /v2/chambers/${chamber}/members`]);
    for (const w of writes) {
      for (const variant of [{ body: w.body }, { raw: '{not json' }, { body: w.body, headers: { 'idempotency-key': 'scope-test' } }]) {
        const r = await call(b.baseUrl, w.method, w.path, { token: t, ...variant });
        expect(r.status, w.path).toBe(403);
        expect(r.body.error).toBe('insufficient_scope');
        expect(r.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="write"');
      }
    }
    expect(await Promise.all(['chambers', 'members', 'audit'].map(count))).toEqual(before);
    for (const path of ['/v2/chambers', `/v2/chambers/${chamber}`, `/v2/chambers/${chamber}/members`, `/v2/chambers/${chamber}/events`]) {
      expect((await call(b.baseUrl, 'GET', path, { token: t })).status, path).toBe(200);
    }
    const v1 = (await call(b.baseUrl, 'POST', '/v1/auth/token', { body: { grant_type: 'client_credentials', client_id: reader.id, client_secret: reader.secret } })).body;
    expect(v1.scope).toBe('read');
    expect((await call(b.baseUrl, 'GET', '/v1/chambers', { token: v1.access_token })).status).toBe(200);
    // and a write token of the same database creates
    const writer = await newClient('write');
    expect((await call(b.baseUrl, 'POST', '/v2/chambers', { token: await token(a, writer), body: chamberBody() })).status).toBe(201);
  });
});

describe('revocation and rotation, across instances', () => {
  it('a revoked client: its token is refused on the other instance within 1 s, its secret at once', async () => {
    const c = await newClient('write');
    const t = await token(a, c);
    // both instances have verified (and remember) the token and the secret
    expect((await call(b.baseUrl, 'GET', '/v2/chambers?per_page=1', { token: t })).status).toBe(200);
    expect((await call(a.baseUrl, 'GET', '/v2/chambers?per_page=1', { token: t })).status).toBe(200);
    await token(b, c);
    const revoked = await admin.revokeClient(c.id, new Date());
    const revokedAt = Date.now();
    expect(revoked).toMatchObject({ already: false });
    // each instance on its own: both within 1 s of the revocation
    const refused = async (s: TestServer) => {
      expect(await timeUntil(async () => (await call(s.baseUrl, 'GET', '/v2/chambers?per_page=1', { token: t })).status === 401, 2000)).toBeGreaterThanOrEqual(0);
      return Date.now() - revokedAt;
    };
    const [onB, onA] = await Promise.all([refused(b), refused(a)]);
    expect(onB).toBeLessThan(1000);
    expect(onA).toBeLessThan(1000);
    for (const s of [a, b]) {
      const r = await tokenFor(s, c);
      expect(r.status).toBe(401);
      expect(r.body.error).toBe('invalid_client');
    }
    expect(await admin.revokeClient(c.id, new Date())).toEqual({ revoked_at: (revoked as { revoked_at: string }).revoked_at, already: true });
    expect((await a.rows('tokens')).filter((row) => row.client_id === c.id)).toEqual([]);
  });

  it("a rotated secret: the old one works until the grace ends, then never again, nor do the tokens issued with it", async () => {
    const c = await newClient('write');
    const oldToken = await token(a, c);
    expect((await call(b.baseUrl, 'GET', '/v2/chambers?per_page=1', { token: oldToken })).status).toBe(200);
    const newSecret = 'RotatedSecret0123456789abcdefghij';
    noteSecret(newSecret);
    // The grace outlasts the checks made during it: 1.5 s, or on a loaded machine 15 token
    // requests' time as measured now (each check of a secret is an scrypt), with a client of
    // its own (a token of `c` now would be a token issued before the rotation too)
    const probe = await newClient('read');
    const before = Date.now();
    expect((await tokenFor(a, probe)).status).toBe(200);
    const graceMs = Math.max(1500, 15 * (Date.now() - before));
    const rotatedAt = Date.now();
    const r = await admin.rotateClient(c.id, await hashSecret(newSecret), new Date(rotatedAt), graceMs);
    expect(r).toEqual({ old_secret_valid_until: new Date(rotatedAt + graceMs).toISOString() });
    // during the grace: both secrets work, on both instances; a token from the old one ends with the grace
    const during = await tokenFor(b, c);
    expect(during.status).toBe(200);
    expect(during.body.expires_in).toBeLessThanOrEqual(Math.ceil(graceMs / 1000) + 1);
    expect((await tokenFor(a, { id: c.id, secret: newSecret })).body.expires_in).toBeGreaterThan(3000);
    expect((await call(b.baseUrl, 'GET', '/v2/chambers?per_page=1', { token: oldToken })).status).toBe(200);
    // after it: the old secret never again, the old tokens refused within the re-check
    const graceEnds = rotatedAt + graceMs;
    await new Promise((res) => setTimeout(res, graceEnds - Date.now() + 20));
    for (const s of [a, b]) expect((await tokenFor(s, c)).status).toBe(401);
    const took = await timeUntil(async () => (await call(b.baseUrl, 'GET', '/v2/chambers?per_page=1', { token: oldToken })).status === 401, 2000);
    expect(took).toBeGreaterThanOrEqual(0);
    expect(took).toBeLessThan(RECHECK_MS + 500);
    expect((await call(a.baseUrl, 'GET', '/v2/chambers?per_page=1', { token: during.body.access_token })).status).toBe(401);
    const fresh = await token(b, { id: c.id, secret: newSecret });
    expect((await call(a.baseUrl, 'GET', '/v2/chambers?per_page=1', { token: fresh })).status).toBe(200);
  });

  it('a rotation without grace ends the old secret and its tokens at once', async () => {
    const c = await newClient('read');
    const oldToken = await token(a, c);
    await admin.rotateClient(c.id, await hashSecret('Another0123456789abcdefghijklmnop'), new Date(), 0);
    expect((await tokenFor(b, c)).status).toBe(401);
    const took = await timeUntil(async () => (await call(a.baseUrl, 'GET', '/v2/chambers?per_page=1', { token: oldToken })).status === 401, 2000);
    expect(took).toBeGreaterThanOrEqual(0);
    expect(took).toBeLessThan(1000);
  });
});

describe('scope changes, across instances', () => {
  /** A write attempt that creates nothing whatever the scope: 403 without write, else 400 for the body. */
  const tryWrite = async (s: TestServer, t: string) => (await call(s.baseUrl, 'POST', '/v2/chambers', { token: t, raw: '{not json', headers: { 'content-type': 'application/json' } })).status;

  it('write → read: tokens already in use stop writing on both instances within 1 s, and new ones are read', async () => {
    const c = await newClient('write');
    const t = await token(a, c);
    // both instances have checked (and remember) the write token
    expect(await tryWrite(a, t)).toBe(400);
    expect(await tryWrite(b, t)).toBe(400);
    expect(await admin.setClientScope(c.id, 'read', new Date(), 'tester@bench')).toEqual({ changed: true });
    const changedAt = Date.now();
    const refused = async (s: TestServer) => {
      expect(await timeUntil(async () => (await tryWrite(s, t)) === 403, 2000)).toBeGreaterThanOrEqual(0);
      return Date.now() - changedAt;
    };
    const [onA, onB] = await Promise.all([refused(a), refused(b)]);
    expect(onA).toBeLessThan(1000);
    expect(onB).toBeLessThan(1000);
    // it still reads; a new token is read, and write is no longer granted
    expect((await call(b.baseUrl, 'GET', '/v2/chambers?per_page=1', { token: t })).status).toBe(200);
    expect((await tokenFor(b, c)).body.scope).toBe('read');
    expect((await tokenFor(a, c, 'write')).body.error).toBe('invalid_scope');
    const changes = (await admin.listAudit({ target: c.id, limit: 10 })).filter((r) => r.target === c.id);
    expect(changes[0]).toMatchObject({ action: 'client.scope', client_id: null, operator: 'tester@bench', detail: 'read', request_id: null, address: null });
  });

  it('read → write: new tokens write; a token issued as read stays read', async () => {
    const c = await newClient('read');
    const readToken = await token(a, c);
    expect(await tryWrite(b, readToken)).toBe(403);
    expect(await admin.setClientScope(c.id, 'write', new Date(), 'tester@bench')).toEqual({ changed: true });
    const fresh = await tokenFor(b, c);
    expect(fresh.body.scope).toBe('write');
    expect(await tryWrite(a, fresh.body.access_token)).toBe(400);
    // past the re-check: the read token looked up again is still read
    await new Promise((r) => setTimeout(r, RECHECK_MS + 100));
    expect(await tryWrite(b, readToken)).toBe(403);
    expect(await tryWrite(a, readToken)).toBe(403);
  });

  it('the scope it has already: nothing changed, nothing recorded; a revoked client: refused', async () => {
    const c = await newClient('write');
    expect(await admin.setClientScope(c.id, 'write', new Date(), 'tester@bench')).toEqual({ changed: false });
    expect((await admin.listAudit({ target: c.id, limit: 10 })).map((r) => r.action)).toEqual(['client.add']);
    await admin.revokeClient(c.id, new Date());
    expect(await admin.setClientScope(c.id, 'read', new Date(), 'tester@bench')).toBe('revoked');
    expect((await admin.listClients()).find((x) => x.client_id === c.id)!.scope).toBe('write');
  });
});

describe('last use', () => {
  /** Counts real writes of clients.last_used_at, with a trigger in the database itself. */
  async function countWrites(): Promise<() => Promise<number>> {
    if (db) {
      await onDatabase(db.url, async (c) => {
        await c.query('CREATE TABLE IF NOT EXISTS use_writes (client_id text)');
        await c.query(`CREATE OR REPLACE FUNCTION note_use_write() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN INSERT INTO use_writes VALUES (NEW.id); RETURN NULL; END $$`);
        await c.query('CREATE OR REPLACE TRIGGER use_writes AFTER UPDATE OF last_used_at ON clients FOR EACH ROW EXECUTE FUNCTION note_use_write()');
      });
      return async () => onDatabase(db!.url, async (c) => Number((await c.query('SELECT count(*) AS n FROM use_writes')).rows[0].n));
    }
    const sqlite = a.server.storage!.db;
    sqlite.exec(`CREATE TABLE IF NOT EXISTS use_writes (client_id TEXT);
      CREATE TRIGGER IF NOT EXISTS use_writes AFTER UPDATE OF last_used_at ON clients BEGIN INSERT INTO use_writes VALUES (NEW.id); END;`);
    return async () => (sqlite.prepare('SELECT count(*) AS n FROM use_writes').get() as { n: number }).n;
  }

  it('is set on first use and written at most once a minute per client, whatever the instances', async () => {
    const writes = await countWrites();
    const c = await newClient('read');
    const lastUsed = async () => (await admin.listClients()).find((x) => x.client_id === c.id)!.last_used_at;
    expect(await lastUsed()).toBeNull();
    const before = await writes();
    const t = await token(a, c);
    const burst = async () => {
      await Promise.all(Array.from({ length: 20 }, (_, i) => call(i % 2 ? a.baseUrl : b.baseUrl, 'GET', '/v2/chambers?per_page=1', { token: t })));
      await new Promise((r) => setTimeout(r, 100)); // the writes are not awaited by the requests
    };
    await burst();
    const first = await lastUsed();
    expect(first).not.toBeNull();
    expect(await writes()).toBe(before + 1);
    skewMs += 30_000;
    await burst();
    expect(await writes()).toBe(before + 1);
    expect(await lastUsed()).toBe(first);
    skewMs += 31_000;
    await burst();
    expect(await writes()).toBe(before + 2);
    expect(Date.parse((await lastUsed())!) - Date.parse(first!)).toBeGreaterThanOrEqual(60_000);
  });
});

describe('the audit trail', () => {
  it('holds exactly the 201s of a concurrent burst across two instances: no replay, no refusal', async () => {
    const c = await newClient('write');
    const t = await token(a, c);
    const chamber = await anyChamber(t);
    const since = new Date(Date.now() + skewMs - 1000).toISOString();
    const requests = Array.from({ length: 40 }, (_, i) => {
      const server = i % 2 ? a : b;
      // duplicates (409), invalid bodies (422), and repeats of one Idempotency-Key (replays)
      if (i % 10 === 3) return call(server.baseUrl, 'POST', `/v2/chambers/${chamber}/members`, { token: t, body: { ...memberBody('x'), email: 'bad' } });
      if (i % 10 === 5) return call(server.baseUrl, 'POST', `/v2/chambers/${chamber}/members`, { token: t, body: memberBody('dup') });
      if (i % 10 === 7) return call(server.baseUrl, 'POST', `/v2/chambers/${chamber}/members`, { token: t, body: memberBody('idem'), headers: { 'idempotency-key': `burst-${c.id}` } });
      if (i % 10 === 9) return call(server.baseUrl, 'POST', '/v2/chambers', { token: t, body: chamberBody(), headers: { 'x-request-id': `burst-${i}` } });
      return call(server.baseUrl, 'POST', `/v2/chambers/${chamber}/members`, { token: t, body: memberBody(`${c.id}-${i}`), headers: { 'x-request-id': `burst-${i}` } });
    });
    const answers = await Promise.all(requests);
    const created = answers.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null);
    expect(answers.some((r) => r.status === 409)).toBe(true);
    expect(answers.some((r) => r.status === 422)).toBe(true);
    // and a repeat of the key afterwards: the first answer again, no new record
    const replay = await call(a.baseUrl, 'POST', `/v2/chambers/${chamber}/members`, { token: t, body: memberBody('idem'), headers: { 'idempotency-key': `burst-${c.id}` } });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const records = (await admin.listAudit({ since, clientId: c.id, limit: 1000 })).filter((r) => r.client_id === c.id);
    expect(records.length).toBe(created.length);
    expect(records.map((r) => r.target).sort()).toEqual(created.map((r) => r.body.id).sort());
    for (const r of created) {
      const record = records.find((x) => x.target === r.body.id)!;
      expect(record.action).toBe(r.body.email ? 'member.add' : 'chamber.create');
      expect(record.request_id).toBe(r.headers.get('x-request-id'));
      expect(record).toMatchObject({ operator: null, detail: null }); // made over HTTP: its client is who
      expect(record.address).toMatch(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
    }
    // newest first
    expect(records.map((r) => r.at)).toEqual([...records.map((r) => r.at)].sort().reverse());
  });

  it('records client changes with no client, and never a secret or a token', async () => {
    const c = await newClient('write');
    const t = await token(a, c);
    await admin.rotateClient(c.id, await hashSecret('Rotated0123456789abcdefghijklmnop'), new Date(), 0);
    await admin.revokeClient(c.id, new Date());
    const changes = (await admin.listAudit({ limit: 10_000 })).filter((r) => r.target === c.id);
    expect(changes.map((r) => r.action)).toEqual(['client.revoke', 'client.rotate', 'client.add']);
    for (const r of changes) expect(r).toMatchObject({ client_id: null, request_id: null, address: null });
    const everything = JSON.stringify(await a.rows('audit')) + JSON.stringify(await a.rows('clients')) + JSON.stringify(await a.rows('tokens'));
    for (const secret of [c.secret, 'Rotated0123456789abcdefghijklmnop', t, a.clientSecret]) expect(everything).not.toContain(secret);
    if (!db) {
      // the file itself (and its write-ahead log): hashes only
      const bytes = readFileSync(dbPath).toString('latin1') + (() => { try { return readFileSync(`${dbPath}-wal`).toString('latin1'); } catch { return ''; } })();
      for (const secret of [c.secret, a.clientSecret, t]) expect(bytes).not.toContain(secret);
    }
  });
});

describe('serve --client-id', () => {
  it('registers a write client, and will not bring back a revoked one', async () => {
    expect((await admin.listClients()).find((x) => x.client_id === a.clientId)).toMatchObject({ scope: 'write', revoked_at: null });
    // recorded once (the second instance found it there), as made by the user serve runs as
    const added = (await admin.listAudit({ target: a.clientId, limit: 10_000 })).filter((r) => r.action === 'client.add');
    expect(added).toEqual([expect.objectContaining({ client_id: null, target: a.clientId, operator: localOperator(), detail: 'write' })]);
    expect(localOperator()).toMatch(/^[^@\s]+@[^@\s]+$/);
    const c = await newClient('read');
    await admin.revokeClient(c.id, new Date());
    const { startServer } = await import('../../src/server/start.js');
    await expect(startServer({ host: '127.0.0.1', port: 0, dbPath, seed: 'none', clientId: c.id, clientSecret: c.secret })).rejects.toThrow(/was revoked/);
    expect(a.server.store instanceof PgStorage).toBe(TEST_BACKEND === 'postgres');
  });
});
