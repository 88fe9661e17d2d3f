// Offline work with the copy on PostgreSQL (`--db postgres://…`, docs/guides/working-offline.md#a-copy-on-postgresql): pull,
// serve the copy, create offline, push, with the built binary; a pull killed halfway and run again.
import { execa } from 'execa';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';
import { expectSameDirectory, tokenFor, walk } from '../helpers/directory-walk.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

const REMOTE = { id: 'remote-client', secret: 'RemoteSecret0123456789' };
const LOCAL = { id: 'local-client', secret: 'LocalSecret0123456789' };
let dir: string;
let cfg: string;
let remote: ServeProcess;
let copy: ServeProcess | undefined;
let db: TestDatabase;
let db2: TestDatabase;

const cli = (args: string[], input?: string, env?: Record<string, string>) =>
  runCli(args, { configDir: cfg, timeout: 120_000, ...(input !== undefined ? { input } : {}), ...(env ? { env } : {}) });
const json = (text: string) => JSON.parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const side = async (baseUrl: string, c: { id: string; secret: string }) => ({
  baseUrl,
  v1: await tokenFor(baseUrl, c.id, c.secret, 'v1'),
  v2: await tokenFor(baseUrl, c.id, c.secret, 'v2'),
});
async function login(profile: string, baseUrl: string, c: { id: string; secret: string }) {
  const r = await cli(['login', '--profile', profile, '--base-url', baseUrl, '--client-id', c.id, '--client-secret-stdin'], c.secret);
  expect(r.exitCode, r.stderr).toBe(0);
}

beforeAll(async () => {
  dir = await makeTempDir('chamberctl-sync-pg-');
  cfg = `${dir}/cfg`;
  [db, db2] = await Promise.all([createTestDatabase('chamberctl_copy'), createTestDatabase('chamberctl_copy')]);
  remote = await startServeProcess(['--port', '0', '--db', `${dir}/remote.db`, '--client-id', REMOTE.id, '--client-secret', REMOTE.secret, '--quiet'], {
    CHAMBERCTL_CONFIG_DIR: `${dir}/cfg-remote`,
  });
  await login('remote', remote.baseUrl, REMOTE);
}, 60_000);
afterAll(async () => {
  await Promise.all([remote?.stop(), copy?.stop()]);
  await Promise.all([db?.drop(), db2?.drop()]);
  await removeTempDir(dir);
});

describe('sync with the copy on PostgreSQL', () => {
  it('pulls every list into PostgreSQL; serve on the copy answers item for item as the remote', async () => {
    const r = await cli(['sync', 'pull', '--from', 'remote', '--db', db.url, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    copy = await startServeProcess(['--port', '0', '--db', db.url, '--seed', 'none', '--client-id', LOCAL.id, '--client-secret', LOCAL.secret, '--quiet'], {
      CHAMBERCTL_CONFIG_DIR: `${dir}/cfg-copy`,
    });
    await login('offline', copy.baseUrl, LOCAL);
    const compared = await expectSameDirectory(await side(remote.baseUrl, REMOTE), await side(copy.baseUrl, LOCAL));
    expect(json(r.stdout)).toMatchObject(compared);
  }, 120_000);

  it('records offline creations, pushes them once with the remote ids, even when killed after a POST', async () => {
    const mk = async (args: string[]) => {
      const r = await cli(['--profile', 'offline', '--json', ...args]);
      expect(r.exitCode, r.stderr).toBe(0);
      return json(r.stdout);
    };
    const hq = await mk(['chambers', 'create', '--name', 'PG Offline HQ', '--type', 'hq', '--street', '1 Quay', '--city', 'Ghent', '--country', 'BE']);
    const sub = await mk(['chambers', 'create', '--name', 'PG Offline Office', '--type', 'subsidiary', '--hq-id', hq.id, '--street', '2 Dock', '--city', 'Bruges', '--country', 'BE']);
    await mk(['members', 'add', sub.id, '--name', 'Pat', '--email', 'pat@example.org', '--membership-type', 'standard']);
    const st = json((await cli(['sync', 'status', '--db', db.url, '--json'])).stdout);
    expect(st.pending.map((c: { kind: string }) => c.kind)).toEqual(['chamber', 'chamber', 'member']);

    const killed = await cli(['sync', 'push', '--db', db.url], undefined, { CHAMBERCTL_TEST_KILL_AFTER_POSTS: '2' });
    expect(killed.exitCode).toBe(-1);
    const r = await cli(['sync', 'push', '--db', db.url, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(json(r.stdout)).toMatchObject({ rejected: 0, held: 0 });
    expect(json((await cli(['sync', 'status', '--db', db.url, '--json'])).stdout).pending).toEqual([]);

    const s = await side(remote.baseUrl, REMOTE);
    const chambers = await walk(remote.baseUrl, s.v2, '/v2/chambers?sort=-created_at');
    const hqs = chambers.filter((c) => c.name === 'PG Offline HQ');
    const subs = chambers.filter((c) => c.name === 'PG Offline Office');
    expect(hqs).toHaveLength(1);
    expect(subs).toHaveLength(1);
    expect(subs[0]!.hq_id).toBe(hqs[0]!.id);
    const members = await walk(remote.baseUrl, s.v2, `/v2/chambers/${subs[0]!.id as string}/members`);
    expect(members.map((m) => m.email)).toEqual(['pat@example.org']);
    // the copy holds them under the remote's ids
    const local = await side(copy!.baseUrl, LOCAL);
    expect(await walk(copy!.baseUrl, local.v2, `/v2/chambers/${subs[0]!.id as string}/members`)).toEqual(members);
  }, 120_000);

  it('continues a pull killed halfway and ends with the same copy', async () => {
    const proxy = await startFaultProxy(remote.baseUrl, (req) => req.method === 'GET' && /\/members/.test(req.url ?? ''));
    proxy.delayMs = 20;
    const peek = new pg.Client({ connectionString: db2.url });
    await peek.connect();
    try {
      await login('slow', proxy.baseUrl, REMOTE);
      const proc = execa(process.execPath, [BIN, 'sync', 'pull', '--from', 'slow', '--db', db2.url, '--concurrency', '2'], {
        env: { ...cleanEnv(), CHAMBERCTL_CONFIG_DIR: cfg },
        extendEnv: false,
        reject: false,
      });
      let finished = false;
      void proc.then(() => (finished = true));
      for (let done = 0; done < 20 && !finished; await new Promise((r) => setTimeout(r, 20))) {
        try {
          done = Number((await peek.query<{ n: string }>('SELECT count(*) AS n FROM sync_done')).rows[0]!.n);
        } catch {
          // not migrated yet
        }
      }
      proc.kill('SIGKILL');
      expect((await proc).signal).toBe('SIGKILL');
      expect(json((await cli(['sync', 'status', '--db', db2.url, '--json'])).stdout).pull_in_progress).toBe(true);
      proxy.delayMs = 0;
      const again = await cli(['sync', 'pull', '--from', 'slow', '--db', db2.url, '--json']);
      expect(again.exitCode, again.stderr).toBe(0);
      const counts = json((await cli(['sync', 'status', '--db', db2.url, '--json'])).stdout).counts;
      const remoteSide = await side(remote.baseUrl, REMOTE);
      // the same as a copy pulled without interruption (the first test's)
      const first = json((await cli(['sync', 'status', '--db', db.url, '--json'])).stdout).counts;
      expect(counts).toEqual(first);
      expect(counts.chambers).toBe((await walk(remote.baseUrl, remoteSide.v2, '/v2/chambers')).length);
      const members = Number((await peek.query<{ n: string }>('SELECT count(*) AS n FROM members')).rows[0]!.n);
      expect(members).toBe(counts.members);
    } finally {
      await peek.end();
      await proxy.close();
    }
  }, 120_000);
});
