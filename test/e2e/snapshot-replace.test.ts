// Issue 43, item 1: `snapshot import --replace` never wipes what a database holds by accident:
// asked on a terminal with the numbers (no: exit 1, Ctrl-C: 130), --yes off one (else exit 2),
// a backup beside the database first (0600, named with the command that restores it), and
// refused while a `serve` has the database open (SQLite and PostgreSQL).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';
import { call } from '../helpers/http.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { KEY, runOnPty } from '../helpers/pty.js';
import { startServeProcess } from '../helpers/serve-process.js';

let dir: string;
beforeAll(async () => {
  assertBuilt();
  dir = await makeTempDir('chamberctl-replace-');
});
afterAll(() => removeTempDir(dir));

const configDir = () => join(dir, 'config');
const env = () => ({ CHAMBERCTL_CONFIG_DIR: configDir(), CHAMBERCTL_DATA_DIR: join(dir, 'data') });
const cli = (args: string[], extra: Record<string, string> = {}) => runCli(args, { configDir: configDir(), env: { CHAMBERCTL_DATA_DIR: join(dir, 'data'), ...extra }, timeout: 60_000 });
const CLIENT = ['--client-id', 'keeper', '--client-secret', 'KeeperSecret123'];

/** A database with the demo data, exported as `snap`, then given one chamber the snapshot does not hold. */
async function databaseNewerThanItsSnapshot(db: string, snap: string): Promise<void> {
  const first = await startServeProcess(['--port', '0', '--db', db, '--quiet', ...CLIENT], env());
  await first.stop();
  expect((await cli(['snapshot', 'export', snap, '--db', db])).exitCode).toBe(0);
  const again = await startServeProcess(['--port', '0', '--db', db, '--quiet', ...CLIENT], env());
  const t = await call(again.baseUrl, 'POST', '/v2/auth/token', { body: { grant_type: 'client_credentials', client_id: 'keeper', client_secret: 'KeeperSecret123' } });
  const made = await call(again.baseUrl, 'POST', '/v2/chambers', {
    token: t.body.access_token,
    body: { name: 'Precious Chamber', type: 'hq', address: { street: '1 Test Road', city: 'Ghent', country: 'BE' } },
  });
  expect(made.status).toBe(201);
  await again.stop();
}

const holdsPrecious = async (db: string) => (await cli(['snapshot', 'export', '--db', db])).stdout.includes('"name":"Precious Chamber"');
const backupsOf = (db: string) => readdirSync(join(db, '..')).filter((f) => f.startsWith(`${db.split('/').at(-1)}.before-replace-`));

describe('snapshot import --replace', () => {
  const db = () => join(dir, 'live.db');
  const snap = () => join(dir, 'old.snapshot');
  beforeAll(() => databaseNewerThanItsSnapshot(db(), snap()), 120_000);

  it('off a terminal: without --yes exit 2 and nothing changed; the question names what would be lost', async () => {
    const r = await cli(['snapshot', 'import', snap(), '--db', db(), '--replace']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      `error: --replace would delete 1 chamber that the snapshot does not hold from ${db()}: pass --yes to replace it without a terminal to confirm on\n`,
    );
    expect(await holdsPrecious(db())).toBe(true);
    expect(backupsOf(db())).toEqual([]);
  });

  it('on a terminal: no is exit 1 and Ctrl-C is 130, nothing changed; yes replaces after a backup', async () => {
    const question = /Replace what .* holds\? 1 chamber that the snapshot does not hold would be lost/s;
    const no = await runOnPty(['snapshot', 'import', snap(), '--db', db(), '--replace'], { configDir: configDir(), columns: 400, env: { CHAMBERCTL_DATA_DIR: join(dir, 'data') }, steps: [{ when: question, send: `n${KEY.enter}` }] });
    expect(no.unanswered, no.output).toBe(0);
    expect(no.exitCode, no.output).toBe(1);
    expect(no.output).toContain('nothing was imported');
    const enter = await runOnPty(['snapshot', 'import', snap(), '--db', db(), '--replace'], { configDir: configDir(), columns: 400, env: { CHAMBERCTL_DATA_DIR: join(dir, 'data') }, steps: [{ when: question, send: KEY.enter }] });
    expect(enter.exitCode, 'the default is no').toBe(1);
    const interrupted = await runOnPty(['snapshot', 'import', snap(), '--db', db(), '--replace'], { configDir: configDir(), columns: 400, env: { CHAMBERCTL_DATA_DIR: join(dir, 'data') }, steps: [{ when: question, send: '\u0003' }] });
    expect(interrupted.exitCode, interrupted.output).toBe(130);
    expect(await holdsPrecious(db())).toBe(true);
    expect(backupsOf(db())).toEqual([]);

    const yes = await runOnPty(['snapshot', 'import', snap(), '--db', db(), '--replace'], { configDir: configDir(), columns: 400, env: { CHAMBERCTL_DATA_DIR: join(dir, 'data') }, steps: [{ when: question, send: `y${KEY.enter}` }] });
    expect(yes.exitCode, yes.output).toBe(0);
    expect(await holdsPrecious(db())).toBe(false);
    expect(yes.output).toContain('removed 1 chamber that the snapshot did not hold');
    const [backup] = backupsOf(db());
    expect(backup).toBeDefined();
    const path = join(dir, backup!);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(yes.output).toContain(`saved what ${db()} held to ${path}; restore it with: chamberctl snapshot import ${path} --db ${db()} --replace`);

    // the backup brings it back (off a terminal, so with --yes; --no-backup: no second backup)
    const restored = await cli(['snapshot', 'import', path, '--db', db(), '--replace', '--yes', '--no-backup']);
    expect(restored.exitCode, restored.stderr).toBe(0);
    expect(await holdsPrecious(db())).toBe(true);
    expect(backupsOf(db())).toHaveLength(1);
  }, 120_000);

  it('off a terminal with --yes: replaces, writes the backup and says what was removed', async () => {
    const before = backupsOf(db()).length;
    const r = await cli(['snapshot', 'import', snap(), '--db', db(), '--replace', '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^saved what .* held to .*\.before-replace-\d{8}T\d{6}Z\.snapshot; restore it with: /);
    expect(r.stderr).toMatch(/imported 200 chambers, 5000 members, 1000 events into .* \(replacing what it held; removed 1 chamber that the snapshot did not hold\)\n$/);
    expect(backupsOf(db()).length).toBe(before + 1);
    expect(await holdsPrecious(db())).toBe(false);
  });

  it('refused while a serve has the SQLite database open (exit 1, naming it), allowed once it stopped', async () => {
    const s = await startServeProcess(['--port', '0', '--db', db(), '--quiet', ...CLIENT], env());
    const lease = readdirSync(dir).filter((f) => f.startsWith('live.db.serve.'));
    expect(lease).toEqual([`live.db.serve.${s.proc.pid}.lock`]);
    const r = await cli(['snapshot', 'import', snap(), '--db', db(), '--replace', '--yes']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(
      `error: chamberctl serve (pid ${s.proc.pid}, ${s.baseUrl}) has ${db()} open: stop it first (Ctrl-C in its terminal, or kill ${s.proc.pid}), then import\n`,
    );
    await s.stop();
    expect(existsSync(join(dir, lease[0]!))).toBe(false);
    expect((await cli(['snapshot', 'import', snap(), '--db', db(), '--replace', '--yes', '--no-backup'])).exitCode).toBe(0);
  }, 60_000);
});

describe('snapshot import --replace on PostgreSQL', () => {
  let pgdb: TestDatabase;
  beforeAll(async () => {
    pgdb = await createTestDatabase('chamberctl_replace');
  });
  afterAll(() => pgdb?.drop());

  it('is refused while an instance serves the database, and backs up into the data directory once none does', async () => {
    const s = await startServeProcess(['--port', '0', '--db', pgdb.url, '--quiet', ...CLIENT], env());
    expect(s.output().stdout).toContain(`  database: PostgreSQL database ${pgdb.name} on ${new URL(pgdb.url).hostname}:${new URL(pgdb.url).port || '5432'}`);
    const snap = join(dir, 'pg.snapshot');
    expect((await cli(['snapshot', 'export', snap, '--db', pgdb.url])).exitCode).toBe(0);
    const r = await cli(['snapshot', 'import', snap, '--db', pgdb.url, '--replace', '--yes']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^error: chamberctl serve \\(pid ${s.proc.pid}, ${s.baseUrl}\\) has postgres://\\S+ open: stop it first \\(Ctrl-C in its terminal, or kill ${s.proc.pid}\\), then import\\n$`));
    await s.stop();
    const ok = await cli(['snapshot', 'import', snap, '--db', pgdb.url, '--replace', '--yes']);
    expect(ok.exitCode, ok.stderr).toBe(0);
    const backup = /held to (\S+);/.exec(ok.stderr)![1]!;
    expect(backup.startsWith(join(dir, 'data', `${pgdb.name}.before-replace-`))).toBe(true);
    expect(readFileSync(backup, 'utf8')).toContain('{"end":{"chambers":200,"members":5000,"events":1000}}');
  }, 120_000);
});
