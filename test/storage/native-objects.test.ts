// better-sqlite3 12's objects and V8's own collections (src/storage/sqlite/open-database.ts):
// on Node 24.19 and later, freeing one of them from a collection that V8 runs outside any
// JavaScript context aborts the process. None may become garbage, and the statements kept
// for that must stay a bounded set however long a server runs.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptStatements } from '../../src/storage/sqlite/open-database.js';
import { Storage } from '../../src/storage/sqlite/storage.js';
import { call } from '../helpers/http.js';
import { startServeProcess } from '../helpers/serve-process.js';
import { getToken, startTestServer, type TestServer } from '../helpers/server.js';

describe('the built server on SQLite', () => {
  let configDir: string;
  beforeAll(async () => {
    configDir = await mkdtemp(join(tmpdir(), 'chamberctl-native-'));
  });
  afterAll(() => rm(configDir, { recursive: true, force: true }));

  // Aborted (SIGABRT, exit 134) within seconds on Node 24.21 before the statements were kept.
  it('keeps answering while V8 collects on its own, and exits 0', async () => {
    const serve = await startServeProcess(['--port', '0', '--db', ':memory:', '--quiet'], {
      CHAMBERCTL_CONFIG_DIR: configDir,
      XDG_CACHE_HOME: join(configDir, 'cache'),
    });
    try {
      // enough allocation, over long enough, for V8 to schedule collections of its own
      const until = Date.now() + 3_000;
      let answered = 0;
      while (Date.now() < until) {
        const batch = await Promise.all(
          Array.from({ length: 20 }, () => fetch(`${serve.baseUrl}/v2/chambers?per_page=100`).then((r) => r.arrayBuffer().then(() => r.status))),
        );
        expect(batch.every((s) => s === 401)).toBe(true); // no token: answered, by the server's own code
        answered += batch.length;
      }
      expect(answered).toBeGreaterThan(100);
      expect(serve.proc.exitCode).toBeNull();
    } finally {
      const end = await serve.stop('SIGTERM');
      expect(end.stderr).not.toMatch(/Assertion failed/);
      expect(end.exitCode).toBe(0);
    }
  });
});

describe('statements kept for a SQLite server', () => {
  let srv: TestServer;
  let token: string;
  let v1Token: string;
  beforeAll(async () => {
    srv = await startTestServer({ seed: 'demo' });
    [token, v1Token] = await Promise.all([getToken(srv.baseUrl), getToken(srv.baseUrl, 'v1')]);
  });
  afterAll(() => srv.close());

  /** Every kind of request the server answers from the database. */
  async function round(n: number): Promise<void> {
    const chambers = await call(srv.baseUrl, 'GET', '/v2/chambers?per_page=5&sort=-name', { token });
    expect(chambers.status).toBe(200);
    const id = chambers.body.data[0].id as string;
    for (const path of [
      '/v1/chambers?page=2',
      '/v2/chambers?filter[type]=hq&filter[status]=active&sort=created_at',
      `/v2/chambers/${id}`,
      `/v2/chambers/${id}?include=members,events`,
      `/v2/chambers/${id}/members?sort=name&filter[status]=active`,
      `/v2/chambers/${id}/events?filter[date_from]=2020-01-01T00:00:00Z&sort=-starts_at`,
      '/v2/chambers/ch_doesnotexist',
    ]) {
      const r = await call(srv.baseUrl, 'GET', path, { token: path.startsWith('/v1') ? v1Token : token });
      expect([200, 404]).toContain(r.status);
    }
    const added = await call(srv.baseUrl, 'POST', `/v2/chambers/${id}/members`, {
      token,
      body: { name: `Kept ${n}`, email: `kept${n}@example.org`, membership_type: 'standard' },
    });
    expect(added.status).toBe(201);
    await getToken(srv.baseUrl);
  }

  it('prepares each statement once, not once per request', async () => {
    const statements = keptStatements.get(srv.server.storage!.db)!;
    await round(0);
    const afterFirst = statements.length;
    expect(afterFirst).toBeGreaterThan(0);
    for (let n = 1; n <= 3; n++) await round(n);
    expect(statements.length).toBe(afterFirst);
  });

  it('keeps pragmas as statements of the connection, and closes them with it', () => {
    const storage = new Storage(':memory:');
    const kept = keptStatements.get(storage.db)!;
    const before = kept.length;
    expect(storage.db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(storage.db.pragma('cache_size = -2048')).toEqual([]);
    expect(storage.db.pragma('table_info(chambers)')).toContainEqual(expect.objectContaining({ name: 'id' }));
    expect(kept.length).toBe(before + 3);
    storage.close();
    expect(() => kept[0]!.get()).toThrow(/database connection is not open/);
  });
});
