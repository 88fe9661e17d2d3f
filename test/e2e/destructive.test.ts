// Issue 43, item 1: every command that destroys or overwrites something (`chamberctl help
// destructive`) asks on a terminal (no: exit 1, Ctrl-C: 130, nothing changed) and needs --yes
// off one (exit 2, nothing changed); with --yes it does it and says what it removed.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';
import { KEY, runOnPty } from '../helpers/pty.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

let dir: string;
let server: ServeProcess;
const configDir = () => join(dir, 'config');
const db = () => join(dir, 'team.db');
const cli = (args: string[], input?: string) => runCli(args, { configDir: configDir(), input });
const pty = (args: string[], answer: string, question: RegExp) =>
  runOnPty(args, { configDir: configDir(), columns: 300, steps: [{ when: question, send: answer }] });
const profiles = () => JSON.parse(readFileSync(join(configDir(), 'config.json'), 'utf8')).profiles as Record<string, { clientSecret?: string; baseUrl: string }>;

beforeAll(async () => {
  assertBuilt();
  dir = await makeTempDir('chamberctl-destructive-');
  server = await startServeProcess(['--port', '0', '--db', db(), '--seed', 'none', '--quiet', '--client-id', 'admin', '--client-secret', 'AdminSecret123'], {
    CHAMBERCTL_CONFIG_DIR: join(dir, 'serve-config'),
  });
  for (const profile of ['work', 'spare']) {
    const r = await cli(['login', '--profile', profile, '--base-url', server.baseUrl, '--client-id', 'admin', '--client-secret-stdin'], 'AdminSecret123');
    expect(r.exitCode, r.stderr).toBe(0);
  }
  expect((await cli(['auth', 'token', '--profile', 'work'])).exitCode).toBe(0); // a cached token
  expect((await cli(['clients', 'add', 'bob', '--db', db(), '--json'])).exitCode).toBe(0);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await removeTempDir(dir);
});

describe('destructive commands off a terminal: exit 2 and nothing changed without --yes', () => {
  it('logout, profiles remove, config set base-url, clients rotate without --grace, snapshot export over a file', async () => {
    const existing = join(dir, 'keep.snapshot');
    writeFileSync(existing, 'precious\n');
    const before = readFileSync(join(configDir(), 'config.json'), 'utf8');
    const cases: [string[], string][] = [
      [['logout', '--profile', 'work'], 'error: logout removes the client secret of profile "work" for good: pass --yes to do it without a terminal to confirm on\n'],
      [['profiles', 'remove', 'spare'], 'error: profiles remove deletes profile "spare" with the client secret of admin: pass --yes to do it without a terminal to confirm on\n'],
      [
        ['config', 'set', 'base-url', 'http://127.0.0.1:1', '--profile', 'work'],
        `error: config set base-url moves profile "work" from ${server.baseUrl} and removes its cached tokens: pass --yes to do it without a terminal to confirm on\n`,
      ],
      [['clients', 'rotate', 'bob', '--db', db()], 'error: rotating "bob" without --grace stops its old secret at once: pass --yes to do it without a terminal to confirm on\n'],
      [['snapshot', 'export', existing, '--db', db()], `error: ${existing} exists and the snapshot would replace it: pass --yes to do it without a terminal to confirm on\n`],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toBe(message);
      expect(r.stdout).toBe('');
    }
    expect(readFileSync(join(configDir(), 'config.json'), 'utf8')).toBe(before);
    expect(readFileSync(existing, 'utf8')).toBe('precious\n');
  });
});

describe('destructive commands on a terminal: no and Ctrl-C change nothing; yes does it and says what', () => {
  it('logout: no (exit 1), Ctrl-C (130), yes', async () => {
    const question = /Remove the client secret of profile "work" \(client admin\)\?/;
    const no = await pty(['logout', '--profile', 'work'], `n${KEY.enter}`, question);
    expect(no.exitCode, no.output).toBe(1);
    expect(no.output).toContain('profile "work" was left as it was');
    const interrupted = await pty(['logout', '--profile', 'work'], '\u0003', question);
    expect(interrupted.exitCode, interrupted.output).toBe(130);
    expect(profiles().work!.clientSecret).toBe('AdminSecret123');
    const yes = await pty(['logout', '--profile', 'work'], `y${KEY.enter}`, question);
    expect(yes.exitCode, yes.output).toBe(0);
    expect(yes.output).toContain('logged out: removed the client secret and cached tokens of profile "work"');
    expect(profiles().work!.clientSecret).toBeUndefined();
  });

  it('snapshot export over a file: no keeps it; yes replaces it (0600) and says so', async () => {
    const existing = join(dir, 'over.snapshot');
    writeFileSync(existing, 'precious\n');
    const question = /over\.snapshot exists\. Replace it with the snapshot\?/;
    const no = await pty(['snapshot', 'export', existing, '--db', db()], `n${KEY.enter}`, question);
    expect(no.exitCode, no.output).toBe(1);
    expect(readFileSync(existing, 'utf8')).toBe('precious\n');
    const yes = await pty(['snapshot', 'export', existing, '--db', db()], `y${KEY.enter}`, question);
    expect(yes.exitCode, yes.output).toBe(0);
    expect(yes.output).toContain('(replacing the file that was there)');
    expect(readFileSync(existing, 'utf8')).toMatch(/^\{"format":"chamberctl-snapshot"/);
    expect(statSync(existing).mode & 0o777).toBe(0o600);
  });

  it('clients rotate without --grace: no keeps the secret; --grace asks nothing', async () => {
    const no = await pty(['clients', 'rotate', 'bob', '--db', db()], `n${KEY.enter}`, /Rotate the secret of "bob" with no grace\?/);
    expect(no.exitCode, no.output).toBe(1);
    expect(no.output).toContain('"bob" was not rotated');
    const graced = await cli(['clients', 'rotate', 'bob', '--grace', '1m', '--db', db(), '--json']);
    expect(graced.exitCode, graced.stderr).toBe(0);
  });

  it('profiles remove: yes removes it and names what it removed', async () => {
    const yes = await pty(['profiles', 'remove', 'spare'], `y${KEY.enter}`, /Remove profile "spare" \(http:\S+\) with the client secret of admin\?/);
    expect(yes.exitCode, yes.output).toBe(0);
    expect(yes.output).toContain(`removed profile "spare" (${server.baseUrl}, client admin)`);
    expect(profiles().spare).toBeUndefined();
  });
});
