// `chamberctl clients add|list|rotate|revoke` and `chamberctl audit` (README, "Team access"),
// run as the built binary on the backend of the pass: a SQLite file, or (CHAMBERCTL_TEST_BACKEND=
// postgres) a PostgreSQL database of its own. The round trip an admin runs, with a `serve` on
// the same database in between; every bad input leaves the database as it was; and no secret
// is ever in the database, or in any output but that of the command that made it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/server/start.js';
import { assertBuilt, makeTempDir, removeTempDir, runCli, type RunResult } from '../helpers/cli.js';
import { call } from '../helpers/http.js';
import { runOnPty } from '../helpers/pty.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { noteSecret } from '../helpers/run-logs.js';
import { TEST_BACKEND } from '../helpers/server.js';
import { startServeProcess } from '../helpers/serve-process.js';

let dir: string;
const pgDatabases: TestDatabase[] = [];

beforeAll(async () => {
  assertBuilt();
  dir = await makeTempDir('chamberctl-team-');
});
afterAll(async () => {
  await Promise.all(pgDatabases.map((db) => db.drop()));
  await removeTempDir(dir);
});

/** Every run of the CLI in this file, for the scan of outputs for secrets. */
const runs: Array<{ args: string[] } & RunResult> = [];
const env = () => ({ CHAMBERCTL_DATA_DIR: join(dir, 'data') });
async function cli(...args: string[]): Promise<RunResult> {
  const run = { args, ...(await runCli(args, { configDir: join(dir, 'config'), env: env() })) };
  runs.push(run);
  return run;
}
/** A run that must succeed; its stdout as JSON when it is JSON. */
async function ok(...args: string[]) {
  const r = await cli(...args);
  expect(r.exitCode, r.stderr).toBe(0);
  return r;
}
const json = async (...args: string[]) => JSON.parse((await ok(...args, '--json')).stdout);

/** A new database as `serve` would open it: a SQLite file, or a PostgreSQL database, with the schema. */
async function newDatabase(name: string): Promise<string> {
  let db: string;
  if (TEST_BACKEND === 'postgres') {
    const pg = await createTestDatabase('chamberctl_team');
    pgDatabases.push(pg);
    db = pg.url;
  } else {
    db = join(dir, `${name}.db`);
  }
  await (await openStore(db)).close();
  return db;
}

/** What the database holds, as bytes or text: the SQLite file and its journals, or a pg_dump. */
async function databaseContent(db: string): Promise<string> {
  if (TEST_BACKEND === 'postgres') return (await execa('pg_dump', ['--no-owner', db])).stdout;
  return ['', '-wal', '-journal'].map((ext) => (existsSync(`${db}${ext}`) ? readFileSync(`${db}${ext}`).toString('latin1') : '')).join('\n');
}

/** What `clients list` and `audit` show of the database. */
const state = async (db: string) => ({ clients: await json('clients', 'list', '--db', db), audit: await json('audit', '--limit', '10000', '--db', db) });

const keys = (o: object) => Object.keys(o).sort();
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SECRET = /^[A-Za-z0-9]{40}$/;

async function tokenStatus(baseUrl: string, clientId: string, secret: string) {
  const r = await call(baseUrl, 'POST', '/v2/auth/token', { body: { grant_type: 'client_credentials', client_id: clientId, client_secret: secret } });
  return { status: r.status, token: r.body?.access_token as string | undefined };
}

describe(`chamberctl clients and audit (${TEST_BACKEND})`, () => {
  let db: string;
  /** Each secret printed, and the run that printed it. */
  const printed: Array<{ secret: string; by: RunResult }> = [];
  const remember = (secret: string, by: RunResult) => {
    noteSecret(secret); // no log line of serve may show it (test/helpers/run-logs.ts)
    printed.push({ secret, by });
  };
  let chamberId: string;

  beforeAll(async () => {
    db = await newDatabase('round-trip');
  });

  it('add: a write client (--json) and a read client (key: value lines); the secret printed once', async () => {
    const alice = await ok('clients', 'add', 'alice', '--scope', 'write', '--db', db, '--json');
    const a = JSON.parse(alice.stdout);
    expect(keys(a)).toEqual(['client_id', 'client_secret', 'created_at', 'scope']);
    expect(a).toMatchObject({ client_id: 'alice', scope: 'write' });
    expect(a.client_secret).toMatch(SECRET);
    expect(a.created_at).toMatch(ISO);
    expect(alice.stderr).toBe('');
    remember(a.client_secret, alice);

    const reports = await ok('clients', 'add', 'reports', '--scope', 'read', '--db', db);
    const lines = reports.stdout.split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe('client_id: reports');
    expect(lines[1]).toMatch(/^client_secret: [A-Za-z0-9]{40}$/);
    expect(lines[2]).toBe('scope: read');
    expect(lines[3]).toMatch(/^created_at: \d{4}-\d{2}-\d{2}T[\d:.]+Z$/);
    expect(reports.stderr).toBe(''); // the warning to save it is for a terminal only
    remember(lines[1]!.slice('client_secret: '.length), reports);

    const plain = await ok('clients', 'add', 'ci', '--db', db, '--json');
    expect(JSON.parse(plain.stdout).scope).toBe('write'); // without --scope
    remember(JSON.parse(plain.stdout).client_secret, plain);
  });

  it('list: id, scope, created, last used, revoked; never a secret or a hash', async () => {
    const list = await json('clients', 'list', '--db', db);
    expect(list.map((c: { client_id: string }) => c.client_id)).toEqual(['alice', 'reports', 'ci']);
    for (const c of list) {
      expect(keys(c)).toEqual(['client_id', 'created_at', 'last_used_at', 'revoked_at', 'scope']);
      expect(c).toMatchObject({ last_used_at: null, revoked_at: null });
    }
    expect(list[1].scope).toBe('read');
    const tsv = await ok('clients', 'list', '--db', db);
    expect(tsv.stdout.split('\n')[1]).toBe(`reports\tread\t${list[1].created_at}\t\t`);
    expect(tsv.stdout + JSON.stringify(list)).not.toMatch(/scrypt|secret/);
  });

  it('serve on the database takes the clients: alice writes, reports only reads', async () => {
    const s = await startServeProcess(['--port', '0', '--db', db, '--seed', 'none', '--quiet'], { CHAMBERCTL_CONFIG_DIR: join(dir, 'serve-config') });
    try {
      expect(s.output().stdout).not.toContain('client secret'); // the database has clients: none generated
      const alice = await tokenStatus(s.baseUrl, 'alice', printed[0]!.secret);
      expect(alice.status).toBe(200);
      const made = await call(s.baseUrl, 'POST', '/v2/chambers', {
        token: alice.token,
        headers: { 'x-request-id': 'team-access-1' },
        body: { name: 'Team Access Chamber', type: 'hq', address: { street: '1 Audit Way', city: 'Ghent', country: 'BE' } },
      });
      expect(made.status).toBe(201);
      chamberId = made.body.id;
      const reports = await tokenStatus(s.baseUrl, 'reports', printed[1]!.secret);
      expect(reports.status).toBe(200);
      const refused = await call(s.baseUrl, 'POST', '/v2/chambers', {
        token: reports.token,
        body: { name: 'Not Allowed', type: 'hq', address: { street: '2 Audit Way', city: 'Ghent', country: 'BE' } },
      });
      expect(refused.status).toBe(403);
    } finally {
      expect((await s.stop()).exitCode).toBe(0);
    }
  }, 60_000);

  it('rotate --grace 15m: a new secret, and until when the old one works; without --grace, null', async () => {
    const before = Date.now();
    const r = await ok('clients', 'rotate', 'alice', '--grace', '15m', '--db', db, '--json');
    const rotated = JSON.parse(r.stdout);
    expect(keys(rotated)).toEqual(['client_id', 'client_secret', 'old_secret_valid_until']);
    expect(rotated.client_id).toBe('alice');
    expect(rotated.client_secret).toMatch(SECRET);
    expect(rotated.client_secret).not.toBe(printed[0]!.secret);
    const until = Date.parse(rotated.old_secret_valid_until);
    expect(rotated.old_secret_valid_until).toMatch(ISO);
    expect(until).toBeGreaterThanOrEqual(before + 15 * 60_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 15 * 60_000);
    remember(rotated.client_secret, r);

    const now = await ok('clients', 'rotate', 'ci', '--db', db, '--json');
    expect(JSON.parse(now.stdout)).toMatchObject({ client_id: 'ci', old_secret_valid_until: null });
    remember(JSON.parse(now.stdout).client_secret, now);
  });

  it('revoke: the time it was revoked; again: the same time, exit 0, nothing new recorded', async () => {
    const first = await json('clients', 'revoke', 'reports', '--db', db);
    expect(keys(first)).toEqual(['client_id', 'revoked_at']);
    expect(first.client_id).toBe('reports');
    expect(first.revoked_at).toMatch(ISO);
    const again = await ok('clients', 'revoke', 'reports', '--db', db);
    expect(again.stdout).toBe(`client_id: reports\nrevoked_at: ${first.revoked_at}\n`);
    expect(again.stderr).toBe('');
    const picked = JSON.parse((await ok('clients', 'list', '--db', db, '--json=client_id,revoked_at')).stdout);
    expect(picked).toEqual([
      { client_id: 'alice', revoked_at: null },
      { client_id: 'reports', revoked_at: first.revoked_at },
      { client_id: 'ci', revoked_at: null },
    ]);
  });

  it('audit: the client changes (client_id null, target the client) and alice\'s write, newest first', async () => {
    const all = await json('audit', '--since', '24h', '--db', db);
    for (const a of all) expect(keys(a)).toEqual(['action', 'address', 'at', 'client_id', 'request_id', 'target']);
    const changes = all.filter((a: { action: string }) => a.action.startsWith('client.'));
    expect(changes.map((a: { action: string; target: string }) => `${a.action} ${a.target}`)).toEqual([
      'client.revoke reports',
      'client.rotate ci',
      'client.rotate alice',
      'client.add ci',
      'client.add reports',
      'client.add alice',
    ]);
    for (const a of changes) expect(a).toMatchObject({ client_id: null, request_id: null, address: null });
    const ats = all.map((a: { at: string }) => a.at);
    expect(ats).toEqual([...ats].sort().reverse());

    // --client: what alice did, and what was done to alice
    const mine = await json('audit', '--since', '24h', '--client', 'alice', '--db', db);
    const byAction = (a: { action: string }, b: { action: string }) => a.action.localeCompare(b.action);
    expect(mine.sort(byAction)).toEqual([
      { at: expect.stringMatching(ISO), action: 'chamber.create', client_id: 'alice', target: chamberId, request_id: 'team-access-1', address: expect.any(String) },
      { at: expect.stringMatching(ISO), action: 'client.add', client_id: null, target: 'alice', request_id: null, address: null },
      { at: expect.stringMatching(ISO), action: 'client.rotate', client_id: null, target: 'alice', request_id: null, address: null },
    ]);
    // its POST was refused: nothing recorded of it, only the changes made to it
    expect((await json('audit', '--client', 'reports', '--db', db)).map((a: { action: string }) => a.action)).toEqual(['client.revoke', 'client.add']);

    expect(await json('audit', '--limit', '2', '--db', db)).toEqual(all.slice(0, 2));
    expect(await json('audit', '--since', '2999-01-01', '--db', db)).toEqual([]);
    expect(await json('audit', '--since', '2000-01-01T00:00:00+01:00', '--db', db)).toEqual(all);
    const tsv = await ok('audit', '--limit', '1', '--db', db);
    expect(tsv.stdout).toBe(`${all[0].at}\tclient.revoke\t\treports\t\t\n`);
  });

  it('no secret in the clear: not in the database, and in no output but the stdout of the command that made it', async () => {
    expect(printed).toHaveLength(5);
    const content = await databaseContent(db);
    expect(content.length).toBeGreaterThan(1000);
    expect(content).toContain('alice'); // the scan does read the clients
    for (const { secret, by } of printed) {
      expect(content.includes(secret), 'a secret in the database').toBe(false);
      const shownIn = runs.filter((r) => r.stdout.includes(secret) || r.stderr.includes(secret));
      expect(shownIn).toHaveLength(1);
      expect(shownIn[0]).toBe(by);
      expect(by.stdout).toContain(secret);
      expect(by.stderr).not.toContain(secret);
    }
  });
  it('on a terminal: the warning to save the secret, tables, and a revocation that was already made', async () => {
    const pty = (...args: string[]) => runOnPty([...args, '--db', db], { configDir: join(dir, 'config'), steps: [], columns: 120 });
    const added = await pty('clients', 'add', 'desk');
    expect(added.exitCode).toBe(0);
    const secret = /client_secret: ([A-Za-z0-9]{40})\n/.exec(added.output)?.[1];
    noteSecret(secret);
    expect(secret).toBeDefined();
    expect(added.output).toMatch(/^client_id: desk\nclient_secret: \w{40}\nscope: write\ncreated_at: \S+Z\nSave this secret now: it will not be shown again\.\n$/);

    const list = await pty('clients', 'list');
    expect(list.output).toMatch(/^CLIENT ID +SCOPE +CREATED +LAST USED +REVOKED\n/);
    expect(list.output).toMatch(/\nreports +read +\d{4}-\d{2}-\d{2} \d{2}:\d{2} +(never|\d{4}-\d{2}-\d{2} \d{2}:\d{2}) +\d{4}-\d{2}-\d{2} \d{2}:\d{2}\n/);
    expect(list.output).toMatch(/\ndesk +write +\d{4}-\d{2}-\d{2} \d{2}:\d{2} +never +-\n/);
    expect(list.output).toContain('\n4 clients\n');

    const again = await pty('clients', 'revoke', 'reports');
    expect(again.exitCode).toBe(0);
    expect(again.output).toMatch(/\n"reports" was already revoked at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC; nothing changed\.\n$/);

    const audit = await pty('audit', '--limit', '2');
    expect(audit.output).toMatch(/^AT \(UTC\) +ACTION +CLIENT +TARGET +REQUEST ID +ADDRESS\n\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} +client\.add +- +desk +- +-\n/);
    expect(audit.output).toContain('2 records, the newest; --limit 20 or --since shows more or fewer');
  }, 60_000);
});

describe(`bad input: one line, its exit status, nothing on stdout, the database unchanged (${TEST_BACKEND})`, () => {
  let db: string;
  let before: Awaited<ReturnType<typeof state>>;
  const missing = () => join(dir, 'missing.db');

  beforeAll(async () => {
    db = await newDatabase('bad-input');
    await ok('clients', 'add', 'alice', '--db', db);
    await ok('clients', 'add', 'gone', '--scope', 'read', '--db', db);
    await ok('clients', 'revoke', 'gone', '--db', db);
    before = await state(db);
  });

  const rule = 'must be 1 to 64 characters of A-Z a-z 0-9 . _ - @, not';
  /** The test's name: the command line (a long word shown by its length) and the exit status. */
  const named = (rows: Array<[string[], number, string]>) =>
    rows.map(([args, code, message]) => [`${args.map((a) => (a.length > 20 ? `<${a.length} characters>` : a)).join(' ')}: exit ${code}`, args, code, message] as const);
  it.each(named([
    [['clients', 'add', 'a b'], 2, `CLIENT_ID ${rule} "a b"`],
    [['clients', 'add', 'x'.repeat(300)], 2, `CLIENT_ID ${rule} "${'x'.repeat(32)}"… (300 characters)`],
    [['clients', 'rotate', 'al ice'], 2, `CLIENT_ID ${rule} "al ice"`],
    [['clients', 'revoke', 'x'.repeat(65)], 2, `CLIENT_ID ${rule}`],
    [['audit', '--client', 'a b'], 2, `--client ${rule} "a b"`],
    [['clients', 'add', 'carol', '--scope', 'admin'], 2, '--scope must be one of: read, write, not "admin"'],
    [['clients', 'rotate', 'alice', '--grace', 'banana'], 2, '--grace must be a duration such as 90s, 15m, 2h or 1d (or 0), not "banana"'],
    [['clients', 'rotate', 'alice', '--grace', '31d'], 2, '--grace must be at most 30d, not "31d"'],
    [['audit', '--since', 'yesterdayish'], 2, '--since must be an ISO 8601 date (2026-11-01) or date-time (2026-11-01T09:00:00Z), or a duration back from now such as 24h or 7d, not "yesterdayish"'],
    [['audit', '--limit', '0'], 2, '--limit must be a whole number from 1 to 10000, not "0"'],
    [['clients', 'rotate', 'nobody'], 4, 'there is no client "nobody" (see `chamberctl clients list`)'],
    [['clients', 'revoke', 'nobody'], 4, 'there is no client "nobody" (see `chamberctl clients list`)'],
    [['audit', '--client', 'nobody'], 4, 'there is no client "nobody" (see `chamberctl clients list`)'],
    [['clients', 'add', 'alice'], 5, 'client "alice" already exists (ids are never reused, not even a revoked client\'s); choose another id'],
    [['clients', 'add', 'gone', '--scope', 'write'], 5, 'client "gone" already exists'],
    [['clients', 'rotate', 'gone'], 5, 'client "gone" is revoked; add a new client instead'],
    [['clients', 'add', 'carol', '--json=client_id,scope'], 2, '--json: the fields must include client_secret, which is shown this once only'],
    [['clients', 'rotate', 'alice', '--json=client_id'], 2, '--json: the fields must include client_secret, which is shown this once only'],
    [['audit', '--json=bogus'], 2, '--json: "bogus" is not a field of an audit record; fields: at, action, client_id, target, request_id, address'],
  ]))('%s', async (_name, args, code, message) => {
    const r = await cli(...args, '--db', db);
    expect(r.exitCode).toBe(code);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toHaveLength(2); // one line, and its newline
    expect(r.stderr).toContain(`error: ${message}`);
    expect(await state(db)).toEqual(before);
  });

  // MISSING: a SQLite file that is not there (the table is read before `dir` exists)
  it.each([
    [['clients', 'list', '--db', 'MISSING'], 4, 'no database at MISSING'],
    [['clients', 'add', 'alice', '--db', 'MISSING'], 4, 'no database at MISSING'],
    [['audit', '--db', 'MISSING'], 4, 'no database at MISSING'],
    [['clients', 'list', '--db', ':memory:'], 2, '--db :memory: holds no clients'],
    [['clients', 'list', '--db', 'postgres://postgres@127.0.0.1:1/nowhere'], 1, 'cannot open the database postgres://postgres@127.0.0.1:1/nowhere: connection refused'],
  ])('%j: exit %i, and no database is created', async (args, code, message) => {
    const r = await cli(...args.map((a) => a.replace('MISSING', missing())));
    expect(r.exitCode).toBe(code);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(r.stderr).toContain(`error: ${message.replace('MISSING', missing())}`);
    expect(existsSync(missing())).toBe(false);
    expect(existsSync(join(dir, 'data'))).toBe(false); // nor the default one
  });
});
