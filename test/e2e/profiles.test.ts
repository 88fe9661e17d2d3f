import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assertBuilt, makeTempDir, removeTempDir, runCli, type RunResult } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// profiles list|use|remove and profile selection (--profile > CHAMBERCTL_PROFILE > use > default).

let server: TestServer;
let dir: string;

beforeAll(async () => {
  assertBuilt();
  server = await startTestServer({ seed: 'none' });
});
afterAll(() => server.close());
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(() => removeTempDir(dir));

const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { configDir: dir, env });
const readConfig = () => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
function expectOk(r: RunResult) {
  expect(r.exitCode, r.stderr).toBe(0);
}
const login = (profile?: string, extra: string[] = []) =>
  cli([
    'login',
    ...(profile ? ['--profile', profile] : []),
    '--base-url',
    server.baseUrl,
    '--client-id',
    server.clientId,
    '--client-secret',
    server.clientSecret,
    ...extra,
  ]);
const listJson = async (args: string[] = [], env: Record<string, string> = {}) => {
  const r = await cli(['profiles', 'list', '--json', ...args], env);
  expectOk(r);
  return JSON.parse(r.stdout) as Array<Record<string, unknown>>;
};
const current = async (args: string[] = [], env: Record<string, string> = {}) =>
  (await listJson(args, env)).filter((p) => p.current).map((p) => p.name);

describe('profiles', () => {
  it('list: an empty array, then every profile without secrets, the one in use marked', async () => {
    expect(await listJson()).toEqual([]);
    expectOk(await login());
    expectOk(await login('staging', ['--api-version', 'v1']));
    const list = await listJson();
    expect(list).toEqual([
      { name: 'default', current: true, base_url: server.baseUrl, client_id: server.clientId, api_version: 'auto', logged_in: true },
      { name: 'staging', current: false, base_url: server.baseUrl, client_id: server.clientId, api_version: 'v1', logged_in: true },
    ]);
    const text = await cli(['profiles', 'list']);
    expectOk(text);
    // not a terminal: tab-separated, no header
    expect(text.stdout).toBe(
      `default\tcurrent\t${server.baseUrl}\t${server.clientId}\tauto\tyes\n` +
        `staging\t\t${server.baseUrl}\t${server.clientId}\tv1\tyes\n`,
    );
    expect(text.stdout + text.stderr).not.toContain(server.clientSecret);
  });

  it('use NAME switches the current profile; --profile and CHAMBERCTL_PROFILE take precedence', async () => {
    expectOk(await login());
    expectOk(await login('staging', ['--api-version', 'v1']));
    expect(await current()).toEqual(['default']);

    const use = await cli(['profiles', 'use', 'staging']);
    expectOk(use);
    expect(use.stderr).toBe('now using profile "staging"\n');
    expect(readConfig().currentProfile).toBe('staging');
    expect(await current()).toEqual(['staging']);
    expect((await cli(['auth', 'status'])).stdout).toContain('profile:       staging (current profile)');

    expect(await current([], { CHAMBERCTL_PROFILE: 'default' })).toEqual(['default']);
    const fromEnv = await cli(['auth', 'status', '--json'], { CHAMBERCTL_PROFILE: 'default' });
    expect(JSON.parse(fromEnv.stdout)).toMatchObject({ name: 'default', profile_source: 'env' });
    const fromFlag = await cli(['auth', 'status', '--json', '--profile', 'staging'], { CHAMBERCTL_PROFILE: 'default' });
    expect(JSON.parse(fromFlag.stdout)).toMatchObject({ name: 'staging', profile_source: 'flag', api_version: 'v1' });
    // global option before the subcommand works too
    const before = await cli(['--profile', 'default', 'auth', 'status', '--json']);
    expect(JSON.parse(before.stdout)).toMatchObject({ name: 'default' });

    // the token goes to the selected profile's pinned version
    const tok = await cli(['auth', 'token', '--json']);
    expect(JSON.parse(tok.stdout)).toMatchObject({ profile: 'staging', api_version: 'v1' });
  });

  it('use and remove of an unknown profile: exit 2 naming the known ones', async () => {
    expectOk(await login());
    const use = await cli(['profiles', 'use', 'nope']);
    expect(use.exitCode).toBe(2);
    expect(use.stderr).toBe('error: there is no profile "nope" (profiles: default)\n');
    const rm = await cli(['profiles', 'remove', 'nope']);
    expect(rm.exitCode).toBe(2);
    const missingArg = await cli(['profiles', 'use']);
    expect(missingArg.exitCode).toBe(2);
  });

  it('remove NAME deletes the profile with its secret; removing the current one falls back to default', async () => {
    expectOk(await login());
    expectOk(await login('staging'));
    expectOk(await cli(['profiles', 'use', 'staging']));
    const r = await cli(['profiles', 'remove', 'staging', '--yes']);
    expectOk(r);
    expect(r.stderr).toMatch(/^removed profile "staging" \(http:\/\/\S+, client \S+\); no profile is current now \(commands use "default"\)\n$/);
    const config = readConfig();
    expect(Object.keys(config.profiles)).toEqual(['default']);
    expect(config.currentProfile).toBeUndefined();
    expect(await current()).toEqual(['default']);
  });

  it('the first profile a user logs in to becomes current, so the next command needs no --profile', async () => {
    const r = await login('work');
    expectOk(r);
    expect(r.stderr).toContain('profile "work" is now the current profile');
    expect(readConfig().currentProfile).toBe('work');
    expectOk(await cli(['auth', 'token']));
    // a later profile does not take over
    expectOk(await login('other'));
    expect(readConfig().currentProfile).toBe('work');
  });

  it('a --profile naming no profile is exit 3 for commands that need credentials', async () => {
    expectOk(await login());
    const r = await cli(['auth', 'token', '--profile', 'ghost']);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toBe('error: there is no profile "ghost"; run `chamberctl login --profile ghost` for a server, or start a local one with `chamberctl serve --profile ghost`\n');
    const bad = await cli(['auth', 'token', '--profile', '../etc']);
    expect(bad.exitCode).toBe(2);
  });
});
