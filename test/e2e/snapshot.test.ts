// `chamberctl snapshot export|import` and `serve --seed FILE`, run as the built binary: a
// database made by `serve` exported, imported into a fresh one with --db, and served again
// from the snapshot with the same lists.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { execa } from 'execa';
import { assertBuilt, BIN, cleanEnv, makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';
import { call } from '../helpers/http.js';
import { logMessages, startServeProcess } from '../helpers/serve-process.js';

let dir: string;
beforeAll(async () => {
  assertBuilt();
  dir = await makeTempDir('chamberctl-snapshot-');
});
afterAll(() => removeTempDir(dir));

const env = () => ({ CHAMBERCTL_CONFIG_DIR: join(dir, 'config'), CHAMBERCTL_DATA_DIR: join(dir, 'data') });
const cli = (args: string[], input?: string) => runCli(args, { configDir: join(dir, 'config'), env: { CHAMBERCTL_DATA_DIR: join(dir, 'data') }, input, timeout: 60_000 });
const CLIENT = ['--client-id', 'snap', '--client-secret', 'SnapSecret123'];

async function lists(baseUrl: string) {
  const t = await call(baseUrl, 'POST', '/v2/auth/token', { body: { grant_type: 'client_credentials', client_id: 'snap', client_secret: 'SnapSecret123' } });
  expect(t.status).toBe(200);
  const get = async (path: string) => {
    const r = await call(baseUrl, 'GET', path, { token: t.body.access_token });
    expect(r.status).toBe(200);
    return r.text;
  };
  const page = await get('/v2/chambers?sort=name&page=2&per_page=50');
  const hq = JSON.parse(await get('/v2/chambers?filter[type]=hq&per_page=1')).data[0].id as string;
  return {
    page,
    members: await get(`/v2/chambers/${hq}/members?sort=-name&per_page=100`),
    events: await get(`/v2/chambers/${hq}/events?per_page=100`),
  };
}

describe('chamberctl snapshot', () => {
  const source = () => join(dir, 'source.db');
  const file = () => join(dir, 'directory.snapshot');

  beforeAll(async () => {
    // a database as `serve` makes it: demo data, a client, a chamber added through the API
    const s = await startServeProcess(['--port', '0', '--db', source(), '--quiet', ...CLIENT], env());
    const t = await call(s.baseUrl, 'POST', '/v2/auth/token', { body: { grant_type: 'client_credentials', client_id: 'snap', client_secret: 'SnapSecret123' } });
    const made = await call(s.baseUrl, 'POST', '/v2/chambers', {
      token: t.body.access_token,
      body: { name: 'Snapshot Chamber', type: 'hq', address: { street: '1 Test Road', city: 'Ghent', country: 'BE' } },
    });
    expect(made.status).toBe(201);
    expect((await s.stop()).exitCode).toBe(0);
  }, 60_000);

  it('exports a serve database to a file (0600) and to stdout, the same bytes', async () => {
    const r = await cli(['snapshot', 'export', file(), '--db', source()]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`exported 201 chambers, 5000 members, 1000 events from ${source()} to ${file()}\n`);
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    const text = readFileSync(file(), 'utf8');
    expect(text.startsWith('{"format":"chamberctl-snapshot","version":1}\n')).toBe(true);
    expect(text.endsWith('{"end":{"chambers":201,"members":5000,"events":1000}}\n')).toBe(true);
    expect(text).toContain('"name":"Snapshot Chamber"');
    expect(text).not.toMatch(/SnapSecret|secret_hash|"client/);

    const out = await cli(['snapshot', 'export', '-', '--db', source()]);
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toBe(text);
  });

  it('`snapshot export | head -1` ends quietly with exit 0', async () => {
    const r = await execa('bash', ['-c', `"${process.execPath}" "${BIN}" snapshot export --db "${source()}" | head -1; echo "status=\${PIPESTATUS[0]}" >&2`], {
      env: { ...cleanEnv(), CHAMBERCTL_CONFIG_DIR: join(dir, 'config') },
      extendEnv: false,
      reject: false,
    });
    expect(r.stdout).toBe('{"format":"chamberctl-snapshot","version":1}');
    expect(r.stderr).toBe('status=0');
  });

  it('imports into a fresh database with --db (--json counts), which exports the same bytes; again without --replace is refused', async () => {
    const copy = join(dir, 'copy.db');
    const r = await cli(['snapshot', 'import', file(), '--db', copy, '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ chambers: 201, members: 5000, events: 1000 });
    expect(r.stderr).toBe(`imported 201 chambers, 5000 members, 1000 events into ${copy}\n`);
    const again = await cli(['snapshot', 'export', '--db', copy]);
    expect(again.stdout).toBe(readFileSync(file(), 'utf8'));

    const twice = await cli(['snapshot', 'import', file(), '--db', copy]);
    expect(twice.exitCode).toBe(5);
    expect(twice.stderr).toMatch(/^error: .*directory\.snapshot: line 2: chamber \S+: that id is already in the database \(snapshot import --replace empties it first\); nothing was imported\n$/);
    const replaced = await cli(['snapshot', 'import', '-', '--db', copy, '--replace', '--yes'], readFileSync(file(), 'utf8'));
    expect(replaced.exitCode).toBe(0);
    expect((await cli(['snapshot', 'export', '--db', copy])).stdout).toBe(readFileSync(file(), 'utf8'));
  });

  it('a bad file exits 5 naming the line, and leaves the database as it was', async () => {
    const copy = join(dir, 'bad-target.db');
    expect((await cli(['snapshot', 'import', file(), '--db', copy])).exitCode).toBe(0);
    const before = (await cli(['snapshot', 'export', '--db', copy])).stdout;
    const lines = readFileSync(file(), 'utf8').split('\n');
    lines[300] = lines[300]!.replace(/"status":"\w+"/, '"status":"gone"');
    const bad = join(dir, 'bad.snapshot');
    writeFileSync(bad, lines.join('\n'));
    const r = await cli(['snapshot', 'import', bad, '--db', copy, '--replace', '--yes']);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toBe(`error: ${bad}: line 301: member: status must be one of: active, inactive, pending; nothing was imported\n`);
    expect((await cli(['snapshot', 'export', '--db', copy])).stdout).toBe(before);
  });

  it('a line over 1 MiB is refused as it is read (exit 5 naming it), by snapshot import and serve --seed alike', async () => {
    const head = readFileSync(file(), 'utf8').split('\n').slice(0, 2).join('\n');
    const long = join(dir, 'long-line.snapshot');
    writeFileSync(long, `${head}\n${'x'.repeat(3 * 1024 * 1024)}\n`);
    const why = 'line 3: the line runs on for more than 1 MiB (a snapshot line is one record; this is not a snapshot, or it is damaged)';
    const r = await cli(['snapshot', 'import', long, '--db', join(dir, 'long-target.db')]);
    expect([r.exitCode, r.stderr]).toEqual([5, `error: ${long}: ${why}; nothing was imported\n`]);
    const seeded = await runCli(['serve', '--port', '0', '--db', join(dir, 'long-seed.db'), '--seed', long], { configDir: join(dir, 'config') });
    expect([seeded.exitCode, seeded.stderr]).toEqual([5, `error: cannot seed from ${long}: ${why}; the database was left empty\n`]);
  });

  it('I/O and usage errors: one line, exit 1 or 2; no database: exit 4', async () => {
    const missing = await cli(['snapshot', 'import', join(dir, 'nope.snapshot'), '--db', join(dir, 'x.db')]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toBe(`error: cannot read ${join(dir, 'nope.snapshot')}: no such file\n`);
    const noDb = await cli(['snapshot', 'export', '--db', join(dir, 'absent.db')]);
    expect(noDb.exitCode).toBe(4);
    expect(noDb.stderr).toBe(`error: no database at ${join(dir, 'absent.db')}\n`);
    const noDir = await cli(['snapshot', 'export', join(dir, 'no', 'such', 'dir.snapshot'), '--db', source()]);
    expect(noDir.exitCode).toBe(1);
    expect(noDir.stderr).toBe(`error: cannot write ${join(dir, 'no', 'such', 'dir.snapshot')}: no such file or directory\n`);
    const usage = await cli(['snapshot', 'import']);
    expect(usage.exitCode).toBe(2);
    expect(usage.stderr).toContain("missing required argument 'file'");
  });

  it('serve --seed FILE serves the same lists as the database the snapshot came from', async () => {
    const a = await startServeProcess(['--port', '0', '--db', source(), '--quiet', ...CLIENT], env());
    const seededDb = join(dir, 'seeded.db');
    const b = await startServeProcess(['--port', '0', '--db', seededDb, '--seed', file(), '--quiet', ...CLIENT], env());
    try {
      // stderr's line follows the URL on stdout
      await vi.waitFor(() => expect(logMessages(b.output().stderr)).toContain(`seeded from ${file()}: 201 chambers, 5000 members, 1000 events`));
      expect(await lists(b.baseUrl)).toEqual(await lists(a.baseUrl));
    } finally {
      await a.stop();
      await b.stop();
    }
    // an existing database is not seeded again
    const c = await startServeProcess(['--port', '0', '--db', seededDb, '--seed', file(), '--quiet', ...CLIENT], env());
    await vi.waitFor(() => expect(logMessages(c.output().stderr).join('\n')).toContain('profile "local"')); // the line after where "seeded" would be
    expect(logMessages((await c.stop()).stderr).join('\n')).not.toContain('seeded');
  });

  it('serve --seed with a bad file exits 5 naming the line, and leaves the database empty', async () => {
    const bad = join(dir, 'truncated.snapshot');
    writeFileSync(bad, readFileSync(file(), 'utf8').split('\n').slice(0, 50).join('\n') + '\n');
    const db = join(dir, 'bad-seed.db');
    const r = await runCli(['serve', '--port', '0', '--db', db, '--seed', bad], { configDir: join(dir, 'config') });
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toBe(`error: cannot seed from ${bad}: line 51: the file ends without its end line (truncated?); the database was left empty\n`);
    const s = await startServeProcess(['--port', '0', '--db', db, '--seed', 'none', '--quiet', ...CLIENT], env());
    const t = await call(s.baseUrl, 'POST', '/v2/auth/token', { body: { grant_type: 'client_credentials', client_id: 'snap', client_secret: 'SnapSecret123' } });
    expect((await call(s.baseUrl, 'GET', '/v2/chambers', { token: t.body.access_token })).body.meta.total).toBe(0);
    await s.stop();
  });
});
