// A colleague whose client holds only `read` (docs/guides/team-access.md#what-a-read-only-colleague-sees):
// every command that writes through the profile (members add, chambers create, members
// import, sync push) says so before any prompt and before any request but one token
// request, in one line naming the profile, its client and what to ask for; with no token
// cached (or an expired one) it gets one first rather than prompting blind. A revoked
// client is told to ask for a new secret, not to log in again with the old one. The built
// binary against a real `serve`, its clients made with `chamberctl clients add`, on the
// backend of the pass (a SQLite file, or a PostgreSQL database).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, makeTempDir, removeTempDir, runCli, type RunResult } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { runOnPty } from '../helpers/pty.js';
import { noteSecret } from '../helpers/run-logs.js';
import { logMessages, startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { TEST_BACKEND } from '../helpers/server.js';

const WRITER = { id: 'alice', secret: 'AliceSecret0123456789abcdefXYZ01' };
const LOCAL = { id: 'offline', secret: 'OfflineSecret0123456789abcdefXY' };
const READER = 'bob';

let dir: string;
let cfg: string;
let db: string;
let pg: TestDatabase | undefined;
let server: ServeProcess;
const others: ServeProcess[] = [];
let chamber: string;

const cli = (args: string[], input?: string): Promise<RunResult> =>
  runCli(args, { configDir: cfg, env: { CHAMBERCTL_DATA_DIR: join(dir, 'data') }, ...(input === undefined ? {} : { input }) });
async function ok(args: string[], input?: string): Promise<RunResult> {
  const r = await cli(args, input);
  expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r;
}
const login = (profile: string, baseUrl: string, id: string, secret: string) =>
  ok(['login', '--profile', profile, '--base-url', baseUrl, '--client-id', id, '--client-secret-stdin'], secret);

/** The requests serve has logged so far (`POST /v2/auth/token 200`). */
const requests = () => logMessages(server.output().stderr).filter((l) => /^[A-Z]+ \//.test(l));

let markers = 0;
/**
 * The requests that reached the server while `fn` ran. serve writes a request's line once it
 * has answered it, so a line may come after `fn` has its answer: a marker request sent after
 * `fn` is answered, and so logged, after all of them; its line is waited for (not a time,
 * which a loaded machine outlasts) and left out.
 */
async function requestsDuring(fn: () => Promise<unknown>): Promise<string[]> {
  const from = requests().length;
  await fn();
  const marker = `GET /write-scope-marker-${++markers} 404`;
  expect((await fetch(`${server.baseUrl}${marker.split(' ')[1]}`)).status).toBe(404);
  for (const until = Date.now() + 20_000; !requests().includes(marker); ) {
    if (Date.now() > until) throw new Error(`serve did not log ${marker}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const seen = requests().slice(from);
  return seen.slice(0, seen.indexOf(marker));
}

/** The profile's cached v2 token, as config.json holds it; `change` rewrites it. */
function cachedToken(profile: string, change?: (token: Record<string, unknown> | undefined) => Record<string, unknown> | undefined) {
  const file = join(cfg, 'config.json');
  const config = JSON.parse(readFileSync(file, 'utf8'));
  const p = config.profiles[profile];
  if (change) {
    const token = change(p.tokens.v2);
    p.tokens = token ? { ...p.tokens, v2: token } : {};
    writeFileSync(file, JSON.stringify(config));
  }
  return p.tokens.v2 as Record<string, unknown> | undefined;
}

const refused = (command: string) =>
  `error: profile "${READER}" (client ${READER}) has only the read scope; ${command} needs write: ` +
  `ask the directory's operator for a write client (chamberctl clients edit ${READER} --scope write) or use a profile that has one`;
/** What any prompt of members add or chambers create would have shown. */
const PROMPTS = /\? |Name|E-mail|Membership type|Type|Street|City|Country|HQ/;
const TOKEN_REQUEST = 'POST /v2/auth/token 200';

beforeAll(async () => {
  assertBuilt();
  dir = await makeTempDir('chamberctl-write-scope-');
  cfg = join(dir, 'cfg');
  if (TEST_BACKEND === 'postgres') {
    pg = await createTestDatabase('chamberctl_scope');
    db = pg.url;
  } else {
    db = join(dir, 'directory.db');
  }
  noteSecret(WRITER.secret);
  noteSecret(LOCAL.secret);
  server = await startServeProcess(['--port', '0', '--db', db, '--seed', 'none', '--client-id', WRITER.id, '--client-secret', WRITER.secret], {
    CHAMBERCTL_CONFIG_DIR: join(dir, 'cfg-serve'),
  });
  // the operator makes a read client for a colleague, while the server runs
  const added = JSON.parse((await ok(['clients', 'add', READER, '--scope', 'read', '--db', db, '--json'])).stdout);
  noteSecret(added.client_secret);
  await login(READER, server.baseUrl, READER, added.client_secret);
  await login(WRITER.id, server.baseUrl, WRITER.id, WRITER.secret);
  const created = await ok(['chambers', 'create', '--profile', WRITER.id, '--name', 'Scope HQ', '--type', 'hq', '--street', '1 Quay', '--city', 'Ghent', '--country', 'BE', '--json']);
  chamber = JSON.parse(created.stdout).id;
  // serve writes a request's line once it has answered it: wait until every line of the
  // set-up is in, so that none is counted among the requests of the first test
  await requestsDuring(async () => {});
}, 60_000);
afterAll(async () => {
  for (const s of others) await s.stop();
  await server?.stop();
  await pg?.drop();
  await removeTempDir(dir);
});

describe(`a profile whose client holds only read (${TEST_BACKEND})`, () => {
  it('members add and chambers create on a terminal: refused before the first prompt (exit 3, one line); one token request at most reached the server', async () => {
    expect(cachedToken(READER)?.scope).toBe('read'); // from the login
    for (const [args, command] of [
      [['members', 'add', chamber], 'members add'],
      [['chambers', 'create'], 'chambers create'],
      [['chambers', 'create', '--type', 'subsidiary', '--name', 'Sub', '--street', '2 Dock', '--city', 'Bruges', '--country', 'BE'], 'chambers create'],
    ] as const) {
      let r!: Awaited<ReturnType<typeof runOnPty>>;
      // the cached token says read: the scope is asked again (write may have been granted since)
      const seen = await requestsDuring(async () => {
        r = await runOnPty(['--profile', READER, ...args], { configDir: cfg, steps: [] });
      });
      expect(r.exitCode, r.output).toBe(3);
      expect(r.output.trim()).toBe(refused(command));
      expect(r.output).not.toMatch(PROMPTS);
      expect(seen, args.join(' ')).toEqual([TOKEN_REQUEST]);
    }
  });

  it('with no token cached, or an expired one, it gets one first and decides from its scope: no prompt', async () => {
    cachedToken(READER, () => undefined);
    let r!: Awaited<ReturnType<typeof runOnPty>>;
    const seen = await requestsDuring(async () => {
      r = await runOnPty(['--profile', READER, 'members', 'add', chamber], { configDir: cfg, steps: [] });
    });
    expect(r.exitCode, r.output).toBe(3);
    expect(r.output.trim()).toBe(refused('members add'));
    expect(r.output).not.toMatch(PROMPTS);
    expect(seen).toEqual([TOKEN_REQUEST]);
    expect(cachedToken(READER)?.scope).toBe('read'); // and cached, as any token

    cachedToken(READER, (t) => ({ ...t, expiresAt: '2020-01-01T00:00:00.000Z' }));
    const expired = await requestsDuring(async () => {
      r = await runOnPty(['--profile', READER, 'chambers', 'create'], { configDir: cfg, steps: [] });
    });
    expect(r.exitCode, r.output).toBe(3);
    expect(r.output.trim()).toBe(refused('chambers create'));
    expect(expired).toEqual([TOKEN_REQUEST]);
  });

  it('without a terminal: members add, chambers create and members import are refused before any other request; a dry run of the import is not', async () => {
    const csv = join(dir, 'rows.csv');
    writeFileSync(csv, 'name,email,membership_type\nAda,ada@example.org,standard\nBob,bob@example.org,premium\n');
    for (const [args, command] of [
      [['members', 'add', chamber, '--name', 'Nope', '--email', 'nope@example.org', '--membership-type', 'standard'], 'members add'],
      [['chambers', 'create', '--name', 'Nope', '--type', 'hq', '--street', 'Meir 1', '--city', 'Antwerp', '--country', 'BE'], 'chambers create'],
      [['members', 'import', chamber, csv], 'members import'],
      [['members', 'import', chamber, csv, '--report', join(dir, 'report.csv')], 'members import'],
    ] as const) {
      let r!: RunResult;
      const seen = await requestsDuring(async () => {
        r = await cli(['--profile', READER, ...args]);
      });
      expect(r.exitCode, args.join(' ')).toBe(3);
      expect(r.stderr).toBe(`${refused(command)}\n`);
      expect(r.stdout).toBe('');
      expect(seen, args.join(' ')).toEqual([TOKEN_REQUEST]);
    }
    // a dry run only reads: the chamber is looked up, the rows checked, nothing sent
    const dry = await cli(['--profile', READER, 'members', 'import', chamber, csv, '--dry-run', '--json']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ dry_run: true, valid: 2, created: 0 });
    // nothing was created
    expect(JSON.parse((await ok(['--profile', WRITER.id, 'members', 'list', chamber, '--all', '--json'])).stdout)).toEqual([]);
    expect(JSON.parse((await ok(['--profile', WRITER.id, 'chambers', 'list', '--all', '--json'])).stdout)).toHaveLength(1);
  });

  it('a write client goes on: no extra request when its token is cached', async () => {
    let r!: RunResult;
    const seen = await requestsDuring(async () => {
      r = await cli(['--profile', WRITER.id, 'members', 'add', chamber, '--name', 'Ada', '--email', 'ada@example.org', '--membership-type', 'standard', '--json']);
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(seen).toEqual([`POST /v2/chambers/${chamber}/members 201`]);
  });

  it('sync push of a copy pulled with the read profile: refused before its first POST; the change stays pending', async () => {
    const copy = join(dir, 'copy.db');
    await ok(['sync', 'pull', '--from', READER, '--db', copy]); // reading is what read is for
    const offline = await startServeProcess(['--port', '0', '--db', copy, '--client-id', LOCAL.id, '--client-secret', LOCAL.secret, '--quiet'], {
      CHAMBERCTL_CONFIG_DIR: join(dir, 'cfg-offline'),
    });
    others.push(offline);
    await login('offline', offline.baseUrl, LOCAL.id, LOCAL.secret);
    await ok(['--profile', 'offline', 'members', 'add', chamber, '--name', 'Offline Olga', '--email', 'olga@example.org', '--membership-type', 'premium']);
    const status = async () => JSON.parse((await ok(['sync', 'status', '--db', copy, '--json'])).stdout);
    expect((await status()).pending).toEqual([expect.objectContaining({ kind: 'member', state: 'pending' })]);

    let r!: RunResult;
    const seen = await requestsDuring(async () => {
      r = await cli(['sync', 'push', '--db', copy]);
    });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toBe(`${refused('sync push')}\n`);
    expect(seen).toEqual([TOKEN_REQUEST]);
    expect((await status()).pending).toEqual([expect.objectContaining({ kind: 'member', state: 'pending' })]);
    // what it would send is still shown: a dry run sends nothing
    const dry = await cli(['sync', 'push', '--db', copy, '--dry-run', '--json']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout).would_send).toHaveLength(1);
  });
});

describe(`a revoked client (${TEST_BACKEND})`, () => {
  it('is told that the client may have been revoked or its secret rotated, and to ask for a new secret: exit 3, one line', async () => {
    await ok(['clients', 'revoke', READER, '--yes', '--db', db]); // --yes: there is no terminal to confirm on
    await new Promise((resolve) => setTimeout(resolve, 1000)); // its tokens are refused within 1 s
    const line =
      `error: profile "${READER}": ${server.baseUrl} refused client ${READER} (client authentication failed); ` +
      "the client may have been revoked or its secret rotated: ask the directory's operator for a new secret, " +
      `then log in with it (chamberctl login --profile ${READER})\n`;
    // a read with the token cached before the revocation: refused, renewed, and the renewal refused
    const list = await cli(['--profile', READER, 'chambers', 'list']);
    expect(list.exitCode).toBe(3);
    expect(list.stderr).toBe(line);
    expect(list.stderr).not.toContain('run `chamberctl login`');
    // a write on a terminal: told before any prompt
    const add = await runOnPty(['--profile', READER, 'members', 'add', chamber], { configDir: cfg, steps: [] });
    expect(add.exitCode, add.output).toBe(3);
    expect(add.output.trim()).toBe(line.trim());
    expect(add.output).not.toMatch(PROMPTS);
  });
});
