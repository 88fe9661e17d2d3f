// `serve` never breaks another profile (issue: a second server rewrote `local`, and the first
// server's credentials, shown only once, were gone).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';
import { logMessages, startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

const logOf = (s: ServeProcess) => logMessages(s.output().stderr).join('\n');

let dir: string;
let cfg: string;
const servers: ServeProcess[] = [];
const cli = (args: string[]) => runCli(args, { configDir: cfg });
const serve = async (args: string[]) => {
  const s = await startServeProcess(['--port', '0', '--quiet', ...args], { CHAMBERCTL_CONFIG_DIR: cfg });
  servers.push(s);
  // the profile is written right after the URL is printed
  for (let i = 0; i < 100 && !/profile|warning/.test(s.output().stderr); i++) await new Promise((r) => setTimeout(r, 20));
  return s;
};

beforeAll(async () => {
  dir = await makeTempDir('chamberctl-serve-profiles-');
  cfg = `${dir}/cfg`;
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await removeTempDir(dir);
});

describe('serve and profiles', () => {
  it('a second server keeps its hands off the first one\'s profile, and says how to get one of its own', async () => {
    const first = await serve(['--db', `${dir}/first.db`]);
    expect((await cli(['--profile', 'local', 'chambers', 'list', '--per-page', '1', '--json'])).exitCode).toBe(0);

    const second = await serve(['--db', `${dir}/second.db`]);
    expect(logOf(second)).toMatch(/warning: profile "local" belongs to the server of .*first\.db: left as it is \(--profile NAME/);
    // `local` still reaches the first server, with the first server's credentials
    const profiles = await cli(['profiles', 'list', '--json']);
    expect(JSON.parse(profiles.stdout).find((p: { name: string }) => p.name === 'local').base_url).toBe(first.baseUrl);
    expect((await cli(['--profile', 'local', 'chambers', 'list', '--per-page', '1'])).exitCode).toBe(0);

    // under a name of its own, the second server gets a working profile
    const third = await serve(['--db', `${dir}/third.db`, '--profile', 'third']);
    expect(logOf(third)).toMatch(/profile "third" points here/);
    expect((await cli(['--profile', 'third', 'chambers', 'list', '--per-page', '1'])).exitCode).toBe(0);

    // a :memory: server leaves existing profiles alone
    const scratch = await serve(['--db', ':memory:']);
    expect(logOf(scratch)).toMatch(/a :memory: server does not take over/);
  });

  it('a second server of the same database leaves the profile to the first while it runs, and says when it moves a dead one', async () => {
    const db = `${dir}/shared.db`;
    const first = await serve(['--db', db, '--profile', 'shared']);
    expect(logOf(first)).toMatch(/profile "shared" points here/);
    const second = await serve(['--db', db, '--profile', 'shared']);
    expect(logOf(second)).toContain(
      `warning: profile "shared" points at the server still running at ${first.baseUrl}: left as it is (--profile NAME saves this one under another name; --overwrite-profile takes it over)`,
    );
    await second.stop();
    const url = async () => JSON.parse((await cli(['profiles', 'list', '--json'])).stdout).find((p: { name: string }) => p.name === 'shared').base_url;
    expect(await url()).toBe(first.baseUrl); // still the running server's, after the second stopped
    expect((await cli(['--profile', 'shared', 'chambers', 'list', '--per-page', '1'])).exitCode).toBe(0);

    // once the first is gone, the next server takes the profile over and says so
    await first.stop();
    const third = await serve(['--db', db, '--profile', 'shared']);
    expect(logOf(third)).toContain(`profile "shared" points here (it pointed at ${first.baseUrl}, which no longer answers)`);
    expect(await url()).toBe(third.baseUrl);
  });

  it('takes the /v2 URL that serve prints as a base URL', async () => {
    const url = `${servers[0]!.baseUrl}/v2`;
    const r = await cli(['--profile', 'local', '--base-url', url, 'chambers', 'list', '--per-page', '1', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
  });
});
