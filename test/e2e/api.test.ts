// `chamberctl api PATH` (like `gh api`) against a real `serve`, with the built binary.
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';
import { tokenFor } from '../helpers/directory-walk.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

const CLIENT = { id: 'api-client', secret: 'ApiSecret0123456789' };
let dir: string;
let cfg: string;
let server: ServeProcess;
const cli = (args: string[], input?: string) => runCli(args, { configDir: cfg, ...(input !== undefined ? { input } : {}) });

beforeAll(async () => {
  dir = await makeTempDir('chamberctl-api-');
  cfg = `${dir}/cfg`;
  server = await startServeProcess(['--port', '0', '--db', ':memory:', '--client-id', CLIENT.id, '--client-secret', CLIENT.secret, '--quiet'], {
    CHAMBERCTL_CONFIG_DIR: `${dir}/cfg-serve`,
  });
  const r = await cli(['login', '--base-url', server.baseUrl, '--client-id', CLIENT.id, '--client-secret-stdin'], CLIENT.secret);
  expect(r.exitCode, r.stderr).toBe(0);
});
afterAll(async () => {
  await server?.stop();
  await removeTempDir(dir);
});

const serverText = async (path: string) =>
  (await fetch(`${server.baseUrl}${path}`, { headers: { authorization: `Bearer ${await tokenFor(server.baseUrl, CLIENT.id, CLIENT.secret, path.slice(1, 3))}` } })).text();

describe('chamberctl api', () => {
  it("prints the server's answer as it came when piped; the version comes from the path, else the profile", async () => {
    const r = await cli(['api', '/v2/chambers?filter[type]=hq&per_page=3']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${await serverText('/v2/chambers?filter[type]=hq&per_page=3')}\n`);
    const v1 = await cli(['api', '/v1/chambers?per_page=2']);
    expect(v1.stdout).toBe(`${await serverText('/v1/chambers?per_page=2')}\n`);
    const bare = await cli(['api', 'chambers/ch_ms2fLiZry7iy3IuE']); // no version: the profile's (auto: v2)
    expect(JSON.parse(bare.stdout).id).toBe('ch_ms2fLiZry7iy3IuE');
  });

  it('sends fields as the query of a GET, and as a nested JSON body otherwise', async () => {
    const q = await cli(['api', '-X', 'GET', '/v2/chambers', '-f', 'filter[status]=pending', '-f', 'per_page=100']);
    const items = JSON.parse(q.stdout).data as { status: string }[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((c) => c.status === 'pending')).toBe(true);

    const made = await cli(['api', '/v2/chambers', '-f', 'name=Api HQ', '-f', 'type=hq', '-f', 'address[street]=1 Quay', '-f', 'address[city]=Ghent', '-F', 'address[postal_code]=null', '-f', 'address[country]=BE']);
    expect(made.exitCode, made.stderr).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({ name: 'Api HQ', type: 'hq', address: { city: 'Ghent', postal_code: null } });
  });

  it('takes the body from --input (a file or stdin), with extra headers', async () => {
    const file = `${dir}/member.json`;
    await writeFile(file, JSON.stringify({ name: 'Ann', email: 'ann@example.org', membership_type: 'standard' }));
    const path = '/v2/chambers/ch_ms2fLiZry7iy3IuE/members';
    const first = await cli(['api', path, '--input', file, '-H', 'Idempotency-Key: api-test-1', '-i']);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^HTTP\/1\.1 201 Created\n(.+: .+\n)+\n\{/);
    expect(first.stdout).toMatch(/\nlocation: \/v2\/chambers\/ch_ms2fLiZry7iy3IuE\/members\/mb_/);
    const again = await cli(['api', path, '--input', '-', '-H', 'Idempotency-Key: api-test-1', '-i'], JSON.stringify({ name: 'Ann', email: 'ann@example.org', membership_type: 'standard' }));
    expect(again.stdout).toMatch(/\nidempotent-replayed: true\n/);
  });

  it('--paginate follows every page and prints one array', async () => {
    const r = await cli(['api', '/v2/chambers/ch_ms2fLiZry7iy3IuE/members', '--paginate']);
    expect(r.exitCode, r.stderr).toBe(0);
    const all = JSON.parse(r.stdout) as { id: string }[];
    const total = JSON.parse(await serverText('/v2/chambers/ch_ms2fLiZry7iy3IuE/members?per_page=1')).meta.total as number;
    expect(all).toHaveLength(total);
    expect(new Set(all.map((m) => m.id)).size).toBe(total);
    expect(total).toBeGreaterThan(100);
  });

  it('prints a failed answer and exits with the code of its status; bad flags are usage errors', async () => {
    const missing = await cli(['api', '/v2/chambers/nope']);
    expect(missing.exitCode).toBe(4);
    expect(JSON.parse(missing.stdout)).toEqual({ error: 'chamber "nope" was not found' });
    expect(missing.stderr).toBe('error: GET /v2/chambers/nope answered 404 Not Found\n');
    const invalid = await cli(['api', '/v2/chambers', '-f', 'name=X']);
    expect(invalid.exitCode).toBe(5);
    expect(JSON.parse(invalid.stdout).fields).toHaveProperty('type');
    for (const bad of [['-f', 'novalue'], ['-H', 'NoColon'], ['--input', `${dir}/absent.json`], ['-X', 'G E T']]) {
      const r = await cli(['api', '/v2/chambers', ...bad]);
      expect(r.exitCode, bad.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error: /);
    }
  });
});
