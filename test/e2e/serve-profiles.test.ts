// `serve` never breaks another profile (issue: a second server rewrote `local`, and the first
// server's credentials, shown only once, were gone).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

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
    expect(second.output().stderr).toMatch(/warning: profile "local" belongs to the server of .*first\.db: left as it is \(--profile NAME/);
    // `local` still reaches the first server, with the first server's credentials
    const profiles = await cli(['profiles', 'list', '--json']);
    expect(JSON.parse(profiles.stdout).find((p: { name: string }) => p.name === 'local').base_url).toBe(first.baseUrl);
    expect((await cli(['--profile', 'local', 'chambers', 'list', '--per-page', '1'])).exitCode).toBe(0);

    // under a name of its own, the second server gets a working profile
    const third = await serve(['--db', `${dir}/third.db`, '--profile', 'third']);
    expect(third.output().stderr).toMatch(/profile "third" points here/);
    expect((await cli(['--profile', 'third', 'chambers', 'list', '--per-page', '1'])).exitCode).toBe(0);

    // a :memory: server leaves existing profiles alone
    const scratch = await serve(['--db', ':memory:']);
    expect(scratch.output().stderr).toMatch(/a :memory: server does not take over/);
  });

  it('takes the /v2 URL that serve prints as a base URL', async () => {
    const url = `${servers[0]!.baseUrl}/v2`;
    const r = await cli(['--profile', 'local', '--base-url', url, 'chambers', 'list', '--per-page', '1', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
  });
});
