// `chamberctl clients add|list|edit|rotate|revoke` and `chamberctl audit`
// (docs/guides/team-access.md), run as the built binary on the backend of the pass: a SQLite file, or
// (CHAMBERCTL_TEST_BACKEND=postgres) a PostgreSQL database of its own. The round trip an admin
// runs, with a `serve` on the same database in between; every bad input leaves the database as
// it was; no secret is ever in the database, or in any output but that of the command that made
// it; the audit trail names who made each client change; a revocation asks first.
import { existsSync, readFileSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/open.js';
import { assertBuilt, makeTempDir, removeTempDir, runCli, type RunResult } from '../helpers/cli.js';
import { call } from '../helpers/http.js';
import { KEY, runOnPty } from '../helpers/pty.js';
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
  await (await openDatabase(db)).close();
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
/** Who the audit trail names for a change made by these runs: the user and host the tests run as. */
const OPERATOR = `${userInfo().username}@${hostname()}`;
const AUDIT_FIELDS = ['at', 'action', 'client_id', 'operator', 'target', 'request_id', 'address', 'detail'];
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

  it('list: id, scope, created, last used, revoked, old secret\'s grace; never a secret or a hash', async () => {
    const list = await json('clients', 'list', '--db', db);
    expect(list.map((c: { client_id: string }) => c.client_id)).toEqual(['alice', 'reports', 'ci']);
    for (const c of list) {
      expect(Object.keys(c)).toEqual(['client_id', 'scope', 'created_at', 'last_used_at', 'revoked_at', 'old_secret_valid_until']);
      expect(c).toMatchObject({ last_used_at: null, revoked_at: null, old_secret_valid_until: null });
    }
    expect(list[1].scope).toBe('read');
    const tsv = await ok('clients', 'list', '--db', db);
    // the columns of before, and old_secret_valid_until appended
    expect(tsv.stdout.split('\n')[1]).toBe(`reports\tread\t${list[1].created_at}\t\t\t`);
    const shown = tsv.stdout + JSON.stringify(list);
    expect(shown).not.toMatch(/scrypt|client_secret|secret_hash|"old_secret_hash/);
    for (const { secret } of printed) expect(shown).not.toContain(secret);
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

    const now = await ok('clients', 'rotate', 'ci', '--yes', '--db', db, '--json');
    expect(JSON.parse(now.stdout)).toMatchObject({ client_id: 'ci', old_secret_valid_until: null });
    remember(JSON.parse(now.stdout).client_secret, now);

    // `clients list` shows the end of a grace while it runs, and null once it has ended
    const short = await ok('clients', 'rotate', 'ci', '--grace', '1s', '--db', db, '--json');
    const shortUntil = JSON.parse(short.stdout).old_secret_valid_until;
    remember(JSON.parse(short.stdout).client_secret, short);
    const grace = async () => Object.fromEntries((await json('clients', 'list', '--db', db)).map((c: { client_id: string; old_secret_valid_until: string | null }) => [c.client_id, c.old_secret_valid_until]));
    // a list that ended before the grace did saw it running (on a busy machine one may not)
    const during = await grace();
    if (Date.now() < Date.parse(shortUntil)) expect(during).toEqual({ alice: rotated.old_secret_valid_until, reports: null, ci: shortUntil });
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(shortUntil) - Date.now() + 50)));
    expect(await grace()).toEqual({ alice: rotated.old_secret_valid_until, reports: null, ci: null });
    const tsv = await ok('clients', 'list', '--db', db);
    expect(tsv.stdout.split('\n')[0]).toMatch(new RegExp(`^alice\twrite\t\\S+\t\\S*\t\t${rotated.old_secret_valid_until}$`));
  });

  it('revoke --yes: the time it was revoked; again: the same time, exit 0, nothing new recorded', async () => {
    const first = await json('clients', 'revoke', 'reports', '--yes', '--db', db);
    expect(keys(first)).toEqual(['client_id', 'revoked_at']);
    expect(first.client_id).toBe('reports');
    expect(first.revoked_at).toMatch(ISO);
    const again = await ok('clients', 'revoke', 'reports', '--yes', '--db', db);
    expect(again.stdout).toBe(`client_id: reports\nrevoked_at: ${first.revoked_at}\n`);
    expect(again.stderr).toBe('');
    const picked = JSON.parse((await ok('clients', 'list', '--db', db, '--json=client_id,revoked_at')).stdout);
    // --json FIELDS with a space, as on the lists of the directory (gh's form)
    expect(JSON.parse((await ok('clients', 'list', '--json', 'client_id,revoked_at', '--db', db)).stdout)).toEqual(picked);
    expect(picked).toEqual([
      { client_id: 'alice', revoked_at: null },
      { client_id: 'reports', revoked_at: first.revoked_at },
      { client_id: 'ci', revoked_at: null },
    ]);
    // --jq over --json FIELDS, on the database's own commands too
    const revoked = await ok('clients', 'list', '--db', db, '--json', 'client_id,revoked_at', '--jq', '.[] | select(.revoked_at) | .client_id');
    expect(revoked.stdout).toBe('reports\n');
    expect((await ok('audit', '--db', db, '--jq', 'first(.[] | select(.action == "client.revoke")) | .target')).stdout).toBe('reports\n');
  });

  it('edit --scope: the client and its new scope; the same scope again changes and records nothing', async () => {
    const edited = await ok('clients', 'edit', 'ci', '--scope', 'read', '--db', db, '--json');
    expect(edited.stdout).toBe('{"client_id":"ci","scope":"read"}\n');
    expect(edited.stderr).toBe('');
    const before = await state(db);
    const again = await ok('clients', 'edit', 'ci', '--scope', 'read', '--db', db);
    expect(again.stdout).toBe('client_id: ci\nscope: read\n');
    expect(again.stderr).toBe(''); // "nothing changed" is said on a terminal only
    expect(await state(db)).toEqual(before);
    expect(before.clients.find((c: { client_id: string }) => c.client_id === 'ci').scope).toBe('read');
    expect(JSON.parse((await ok('clients', 'edit', 'ci', '--scope', 'read', '--db', db, '--json=scope')).stdout)).toEqual({ scope: 'read' });
  });

  it('audit: the client changes (client_id null, target the client) and alice\'s write, newest first', async () => {
    const all = await json('audit', '--since', '24h', '--db', db);
    for (const a of all) expect(Object.keys(a)).toEqual(AUDIT_FIELDS);
    const changes = all.filter((a: { action: string }) => a.action.startsWith('client.'));
    // who made each (the user and host of the command), and what it set: the scope, the grace
    expect(changes.map((a: { action: string; target: string; detail: string | null }) => `${a.action} ${a.target} ${a.detail}`)).toEqual([
      'client.scope ci read',
      'client.revoke reports null',
      'client.rotate ci 1s',
      'client.rotate ci 0',
      'client.rotate alice 15m',
      'client.add ci write',
      'client.add reports read',
      'client.add alice write',
    ]);
    for (const a of changes) expect(a).toMatchObject({ client_id: null, operator: OPERATOR, request_id: null, address: null });
    const ats = all.map((a: { at: string }) => a.at);
    expect(ats).toEqual([...ats].sort().reverse());

    // --client: only what alice did over HTTP, as its help says (issue 43); --target: what was done to alice
    expect(await json('audit', '--since', '24h', '--client', 'alice', '--db', db)).toEqual([
      { at: expect.stringMatching(ISO), action: 'chamber.create', client_id: 'alice', operator: null, target: chamberId, request_id: 'team-access-1', address: expect.any(String), detail: null },
    ]);
    expect(await json('audit', '--target', 'alice', '--db', db)).toEqual([
      { at: expect.stringMatching(ISO), action: 'client.rotate', client_id: null, operator: OPERATOR, target: 'alice', request_id: null, address: null, detail: '15m' },
      { at: expect.stringMatching(ISO), action: 'client.add', client_id: null, operator: OPERATOR, target: 'alice', request_id: null, address: null, detail: 'write' },
    ]);
    // its POST was refused: nothing recorded of it, only the changes made to it
    expect(await json('audit', '--client', 'reports', '--db', db)).toEqual([]);
    expect((await json('audit', '--target', 'reports', '--db', db)).map((a: { action: string }) => a.action)).toEqual(['client.revoke', 'client.add']);
    // --action PATTERN: the client changes alone, whatever the writes around them
    const clientChanges = await json('audit', '--action', 'client.*', '--db', db);
    expect(clientChanges).toEqual(all.filter((a: { action: string }) => a.action.startsWith('client.')));
    expect(await json('audit', '--action', 'chamber.create', '--db', db)).toEqual(all.filter((a: { action: string }) => a.action === 'chamber.create'));
    // --format, as the list commands take it
    const csv = await ok('audit', '--format', 'csv', '--action', 'client.rotate', '--db', db);
    expect(csv.stdout.split(/\r?\n/)[0]).toBe('at,action,client_id,target,request_id,address,operator,detail');
    expect(csv.stdout).toContain(`,client.rotate,,alice,,,${OPERATOR},15m`);
    expect(JSON.parse((await ok('audit', '--format', 'json', '--limit', '2', '--db', db)).stdout)).toEqual(all.slice(0, 2));

    expect(await json('audit', '--limit', '2', '--db', db)).toEqual(all.slice(0, 2));
    expect(await json('audit', '--since', '2999-01-01', '--db', db)).toEqual([]);
    expect(await json('audit', '--since', '2000-01-01T00:00:00+01:00', '--db', db)).toEqual(all);
    // TSV: the columns of before, then operator and detail
    const tsv = await ok('audit', '--limit', '1', '--db', db);
    expect(tsv.stdout).toBe(`${all[0].at}\tclient.scope\t\tci\t\t\t${OPERATOR}\tread\n`);
    expect(JSON.parse((await ok('audit', '--limit', '1', '--db', db, '--json=operator,detail')).stdout)).toEqual([{ operator: OPERATOR, detail: 'read' }]);
    expect(JSON.parse((await ok('audit', '--limit', '1', '--json', 'operator,detail', '--db', db)).stdout)).toEqual([{ operator: OPERATOR, detail: 'read' }]);
  });

  it('snapshots carry neither clients nor the audit trail, and import --replace keeps both', async () => {
    const file = join(dir, 'team.snapshot');
    await ok('snapshot', 'export', file, '--db', db);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('Team Access Chamber');
    for (const word of ['alice', 'reports', 'client.', OPERATOR, 'team-access-1']) expect(text).not.toContain(word);
    const before = await state(db);
    await ok('snapshot', 'import', file, '--replace', '--yes', '--no-backup', '--db', db);
    expect(await state(db)).toEqual(before);
  });

  it('no secret in the clear: not in the database, and in no output but the stdout of the command that made it', async () => {
    expect(printed).toHaveLength(6);
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
    expect(added.output).toMatch(/^client_id: desk\nclient_secret: \w{40}\nscope: write\ncreated_at: \S+Z\nSave this secret now: it will not be shown again\.\nIts user logs in with \(the secret on stdin\): chamberctl login --base-url URL --client-id desk --client-secret-stdin\n$/);

    const list = await pty('clients', 'list');
    const T = '\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}';
    expect(list.output).toMatch(/^CLIENT ID +SCOPE +CREATED +LAST USED +REVOKED +OLD SECRET UNTIL\n/);
    expect(list.output).toMatch(new RegExp(`\\nalice +write +${T} +(never|${T}) +- +${T}:\\d{2}\\n`)); // its grace of 15m runs
    expect(list.output).toMatch(new RegExp(`\\nreports +read +${T} +(never|${T}) +${T} +-\\n`));
    expect(list.output).toMatch(new RegExp(`\\ndesk +write +${T} +never +- +-\\n`));
    expect(list.output).toContain('\n4 clients\n');

    const again = await pty('clients', 'revoke', 'reports'); // revoked before: nothing to ask
    expect(again.exitCode).toBe(0);
    expect(again.output).toMatch(/\n"reports" was already revoked at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC; nothing changed\.\n$/);

    const same = await pty('clients', 'edit', 'desk', '--scope', 'write');
    expect(same.exitCode).toBe(0);
    expect(same.output).toBe('client_id: desk\nscope: write\n"desk" already has the write scope; nothing changed.\n');
    const down = await pty('clients', 'edit', 'desk', '--scope', 'read');
    expect(down.exitCode).toBe(0);
    expect(down.output).toMatch(/^client_id: desk\nscope: read\n"desk" now has the read scope: its tokens, those issued before included, can no longer write/);

    const audit = await pty('audit', '--limit', '2');
    const op = OPERATOR.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(audit.output).toMatch(new RegExp(`^AT \\(UTC\\) +ACTION +CLIENT +OPERATOR +TARGET +DETAIL +REQUEST ID +ADDRESS\\n${T}:\\d{2} +client\\.scope +- +${op} +desk +read +- +-\\n${T}:\\d{2} +client\\.add +- +${op} +desk +write +- +-\\n`));
    expect(audit.output).toContain('\n2 records, the newest; --limit 4 shows more, --since picks a period\n');
  }, 60_000);
});

describe(`clients edit and revoke while serve serves, and the question revoke asks (${TEST_BACKEND})`, () => {
  let db: string;
  beforeAll(async () => {
    db = await newDatabase('edit-revoke');
  });
  const added = async (id: string, scope = 'write') => {
    const secret = JSON.parse((await ok('clients', 'add', id, '--scope', scope, '--db', db, '--json')).stdout).client_secret as string;
    noteSecret(secret);
    return secret;
  };
  /** A write that creates nothing whatever the scope: 403 without write, else 400 for its body. */
  const tryWrite = async (baseUrl: string, token: string) => (await call(baseUrl, 'POST', '/v2/chambers', { token, raw: '{not json', headers: { 'content-type': 'application/json' } })).status;
  const revokedAt = async (id: string) => (await json('clients', 'list', '--db', db)).find((c: { client_id: string }) => c.client_id === id).revoked_at;
  const changesTo = async (id: string) => (await json('audit', '--target', id, '--db', db)).map((a: { action: string }) => a.action);

  it('edit --scope read: a write token in use stops writing within 1 s of the command; a token of a revoked client at once', async () => {
    const secret = await added('editor');
    const other = await added('leaver');
    const s = await startServeProcess(['--port', '0', '--db', db, '--seed', 'none', '--quiet'], { CHAMBERCTL_CONFIG_DIR: join(dir, 'serve-config-2') });
    try {
      const t = (await tokenStatus(s.baseUrl, 'editor', secret)).token!;
      expect(await tryWrite(s.baseUrl, t)).toBe(400); // checked, and remembered by the server
      await ok('clients', 'edit', 'editor', '--scope', 'read', '--db', db);
      const done = Date.now();
      let status = 0;
      while (Date.now() - done < 2000 && (status = await tryWrite(s.baseUrl, t)) !== 403) await new Promise((r) => setTimeout(r, 20));
      expect(status).toBe(403);
      expect(Date.now() - done).toBeLessThan(1000);
      expect((await call(s.baseUrl, 'GET', '/v2/chambers', { token: t })).status).toBe(200); // it still reads

      const leaving = (await tokenStatus(s.baseUrl, 'leaver', other)).token!;
      await ok('clients', 'revoke', 'leaver', '--yes', '--db', db);
      const revoked = Date.now();
      while (Date.now() - revoked < 2000 && (await call(s.baseUrl, 'GET', '/v2/chambers', { token: leaving })).status !== 401) await new Promise((r) => setTimeout(r, 20));
      expect(Date.now() - revoked).toBeLessThan(1000);
    } finally {
      expect((await s.stop()).exitCode).toBe(0);
    }
  }, 60_000);

  it('revoke on a terminal asks first: Enter and n keep the client (exit 1), Ctrl-C too (exit 130), y revokes', async () => {
    await added('asked');
    const before = await state(db);
    const question = /Revoke client "asked"\? It can never be used or added again\./;
    const answer = (send: string) => runOnPty(['clients', 'revoke', 'asked', '--db', db], { configDir: join(dir, 'config'), steps: [{ when: question, send }] });

    for (const [send, code, says] of [
      [KEY.enter, 1, 'error: "asked" was not revoked'],
      [`n${KEY.enter}`, 1, 'error: "asked" was not revoked'],
      ['\u0003', 130, 'error: cancelled; "asked" was not revoked'],
    ] as const) {
      const r = await answer(send);
      expect(r.unanswered, r.output).toBe(0);
      expect(r.exitCode, r.output).toBe(code);
      expect(r.output).toMatch(/\(y\/N\)/); // no is the default
      expect(r.output).toContain(says);
      expect(await state(db)).toEqual(before);
    }

    const yes = await answer(`y${KEY.enter}`);
    expect(yes.exitCode, yes.output).toBe(0);
    expect(yes.output).toMatch(/\nclient_id: asked\nrevoked_at: \S+Z\n"asked" is revoked: its secret and every token issued to it are refused from now on\.\n$/);
    expect(await revokedAt('asked')).not.toBeNull();
    expect(await changesTo('asked')).toEqual(['client.revoke', 'client.add']);
  }, 60_000);

  it('on a terminal: --yes asks nothing, and an unknown client is exit 4 before any question', async () => {
    await added('sure');
    const r = await runOnPty(['clients', 'revoke', 'sure', '--yes', '--db', db], { configDir: join(dir, 'config'), steps: [] });
    expect(r.exitCode, r.output).toBe(0);
    expect(r.output).not.toContain('Revoke client');
    expect(await revokedAt('sure')).not.toBeNull();
    const unknown = await runOnPty(['clients', 'revoke', 'nobody', '--db', db], { configDir: join(dir, 'config'), steps: [] });
    expect(unknown.exitCode).toBe(4);
    expect(unknown.output).toBe('error: there is no client "nobody" (see `chamberctl clients list`)\n');
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
    await ok('clients', 'revoke', 'gone', '--yes', '--db', db);
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
    [['clients', 'revoke', 'nobody', '--yes'], 4, 'there is no client "nobody" (see `chamberctl clients list`)'],
    [['clients', 'revoke', 'alice'], 2, 'revoking "alice" is permanent: pass --yes to revoke it without a terminal to confirm on'],
    [['clients', 'revoke', 'nobody'], 2, 'revoking "nobody" is permanent: pass --yes'],
    [['clients', 'edit', 'nobody', '--scope', 'read'], 4, 'there is no client "nobody" (see `chamberctl clients list`)'],
    [['clients', 'edit', 'gone', '--scope', 'read'], 5, 'client "gone" is revoked; add a new client instead'],
    [['clients', 'edit', 'gone', '--scope', 'write'], 5, 'client "gone" is revoked; add a new client instead'],
    [['clients', 'edit', 'alice'], 2, "required option '--scope <scope>' not specified"],
    [['clients', 'edit', 'alice', '--scope', 'admin'], 2, '--scope must be one of: read, write, not "admin"'],
    [['clients', 'edit', 'a b', '--scope', 'read'], 2, `CLIENT_ID ${rule} "a b"`],
    [['clients', 'edit', 'alice', '--scope', 'read', '--json=secret'], 2, '--json: "secret" is not a field of an edited client; fields: client_id, scope'],
    [['audit', '--client', 'nobody'], 4, 'there is no client "nobody" (see `chamberctl clients list`)'],
    [['audit', '--action', 'clinet.*'], 2, '--action "clinet.*" matches no action; actions: chamber.create, member.add, client.add, client.rotate, client.revoke, client.scope (* stands for any characters: client.*)'],
    [['audit', '--format', 'xml'], 2, '--format must be one of: table, tsv, json, csv, not "xml"'],
    [['clients', 'add', 'alice'], 5, 'client "alice" already exists (ids are never reused, not even a revoked client\'s); choose another id'],
    [['clients', 'add', 'gone', '--scope', 'write'], 5, 'client "gone" already exists'],
    [['clients', 'rotate', 'gone'], 5, 'client "gone" is revoked; add a new client instead'],
    [['clients', 'add', 'carol', '--json=client_id,scope'], 2, '--json: the fields must include client_secret, which is shown this once only'],
    [['clients', 'rotate', 'alice', '--json=client_id'], 2, '--json: the fields must include client_secret, which is shown this once only'],
    [['audit', '--json=bogus'], 2, '--json: "bogus" is not a field of an audit record; fields: at, action, client_id, operator, target, request_id, address, detail'],
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
