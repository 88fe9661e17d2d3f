import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assertBuilt, makeTempDir, removeTempDir, runCli, type RunResult } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// login, logout, auth status and auth token: the built binary against the real server.

let server: TestServer;
/** Added to the server's clock, to expire tokens on the server's side. */
let serverSkewMs = 0;
let dir: string;

beforeAll(async () => {
  assertBuilt();
  server = await startTestServer({ seed: 'demo', now: () => new Date(Date.now() + serverSkewMs) });
});
afterAll(() => server.close());
beforeEach(async () => {
  dir = await makeTempDir();
  serverSkewMs = 0;
});
afterEach(() => removeTempDir(dir));

const cli = (args: string[], opts: { env?: Record<string, string>; input?: string } = {}) =>
  runCli(args, { configDir: dir, ...opts });
const configPath = () => join(dir, 'config.json');
const readConfig = () => JSON.parse(readFileSync(configPath(), 'utf8'));
const loginArgs = () => ['login', '--base-url', server.baseUrl, '--client-id', server.clientId];
const login = (extra: string[] = []) => cli([...loginArgs(), '--client-secret', server.clientSecret, ...extra]);

function expectOk(r: RunResult) {
  expect(r.exitCode, r.stderr).toBe(0);
}

describe('login', () => {
  it('with flags: verifies, saves the profile 0600 and caches the token', async () => {
    const before = server.tokenRequests();
    const r = await login();
    expectOk(r);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`logged in to ${server.baseUrl} as client "${server.clientId}" (scope write); saved as profile "default"\n`);
    expect(server.tokenRequests() - before).toBe(1);
    expect(statSync(configPath()).mode & 0o777).toBe(0o600);
    const p = readConfig().profiles.default;
    expect(p).toMatchObject({ baseUrl: server.baseUrl, clientId: server.clientId, apiVersion: 'auto' });
    expect(Object.keys(p.tokens)).toEqual(['v2']); // auto verifies against v2
  });

  it('with the environment', async () => {
    const r = await cli(['login', '--base-url', server.baseUrl], {
      env: { CHAMBERCTL_CLIENT_ID: server.clientId, CHAMBERCTL_CLIENT_SECRET: server.clientSecret },
    });
    expectOk(r);
    expect(readConfig().profiles.default.clientId).toBe(server.clientId);
  });

  it('with the secret on stdin, printing JSON with --json', async () => {
    const r = await cli([...loginArgs(), '--client-secret-stdin', '--json'], { input: `${server.clientSecret}\n` });
    expectOk(r);
    expect(JSON.parse(r.stdout)).toEqual({
      profile: 'default',
      base_url: server.baseUrl,
      client_id: server.clientId,
      api_version: 'auto',
      current: false,
      scope: 'write',
    });
  });

  it('with wrong credentials: exit 3 and nothing saved', async () => {
    const r = await cli([...loginArgs(), '--client-secret', 'WrongSecret123']);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/^error: .*rejected the client credentials.*\n$/);
    expect(readdirSync(dir).filter((f) => f !== 'config.json')).toEqual([]);
    const saved = readdirSync(dir).includes('config.json') ? readConfig() : {};
    expect(saved.profiles ?? {}).toEqual({});
  });

  it('without a terminal, a missing value is a usage error at once, not a prompt', async () => {
    const started = Date.now();
    const noSecret = await cli(loginArgs());
    expect(noSecret.exitCode).toBe(2);
    expect(noSecret.stderr).toContain('missing client secret');
    const noId = await cli(['login', '--base-url', server.baseUrl, '--client-secret', 'x']);
    expect(noId.exitCode).toBe(2);
    expect(noId.stderr).toContain('missing client id');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('rejects contradictory or malformed options (exit 2)', async () => {
    const both = await cli([...loginArgs(), '--client-secret', 'a', '--client-secret-stdin'], { input: 'b' });
    expect(both.exitCode).toBe(2);
    const badUrl = await cli(['login', '--base-url', 'ftp://x', '--client-id', 'a', '--client-secret', 'b']);
    expect(badUrl.exitCode).toBe(2);
    expect(badUrl.stderr).toBe('error: --base-url must be an http:// or https:// URL, not "ftp://x"\n');
    const badVersion = await cli([...loginArgs(), '--client-secret', 'a', '--api-version', 'v3']);
    expect(badVersion.exitCode).toBe(2);
  });

  it('pinned to v1: verifies against v1 and saves the pin', async () => {
    expectOk(await login(['--api-version', 'v1']));
    const p = readConfig().profiles.default;
    expect(p.apiVersion).toBe('v1');
    expect(Object.keys(p.tokens)).toEqual(['v1']);
  });

  it('refuses to send the secret over plain http to an address other than loopback (exit 3), saving nothing', async () => {
    for (const url of ['http://192.0.2.1:8080', 'http://directory.example.org']) {
      const r = await cli(['login', '--base-url', url, '--client-id', 'a', '--client-secret', 'b']);
      expect(r.exitCode).toBe(3);
      expect(r.stderr).toBe(
        `error: refusing to send the client secret to ${url} over plain http: use its https:// URL (a TLS proxy in front of serve), ` +
          'or reach it through a loopback address (ssh -L 8080:localhost:8080 HOST, then http://127.0.0.1:8080)\n',
      );
    }
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it("never sends the profile's secret to the origin --base-url names: exit 3 and one line, until that origin has credentials", async () => {
    expectOk(await login());
    const other = await startTestServer({ seed: 'none' });
    try {
      const r = await cli(['chambers', 'list', '--base-url', other.baseUrl]);
      expect(r.exitCode).toBe(3);
      expect(r.stderr).toBe(
        `error: profile "default" holds credentials for ${server.baseUrl} only, not for ${other.baseUrl}: ` +
          `log in to it (chamberctl login --profile NAME --base-url ${other.baseUrl}), or set CHAMBERCTL_CLIENT_ID and CHAMBERCTL_CLIENT_SECRET for it\n`,
      );
      expect(other.tokenRequests()).toBe(0);
      const env = { CHAMBERCTL_CLIENT_ID: other.clientId, CHAMBERCTL_CLIENT_SECRET: other.clientSecret };
      const withEnv = await cli(['chambers', 'list', '--base-url', other.baseUrl], { env });
      expect(withEnv.exitCode, withEnv.stderr).toBe(0);
      expect(other.tokenRequests()).toBe(1);
      expect(JSON.stringify(readConfig())).not.toContain(other.baseUrl);
    } finally {
      await other.close();
    }
  });

  it('names the server when it cannot be reached (exit 1)', async () => {
    const gone = await startTestServer({ seed: 'none' });
    await gone.close();
    const r = await cli(['login', '--base-url', gone.baseUrl, '--client-id', 'a', '--client-secret', 'b']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(`error: cannot reach ${gone.baseUrl}: connection refused\n`);
  });
});

describe('auth status', () => {
  it('shows the profile without secrets or tokens', async () => {
    expectOk(await login());
    const r = await cli(['auth', 'status']);
    expectOk(r);
    expect(r.stdout).toContain('profile:       default (default profile)');
    expect(r.stdout).toContain(`base url:      ${server.baseUrl}`);
    expect(r.stdout).toContain(`client id:     ${server.clientId}`);
    expect(r.stdout).toContain('api version:   auto');
    expect(r.stdout).toContain('token v1:      none cached');
    expect(r.stdout).toMatch(/token v2: {6}cached, valid until \d{4}-\d\d-\d\dT/);
    const json = JSON.parse((await cli(['auth', 'status', '--json'])).stdout);
    expect(json).toMatchObject({ name: 'default', logged_in: true, api_version: 'auto', tokens: { v1: null } });
    expect(json.tokens.v2.valid).toBe(true);
  });

  it('exit 3 with a hint when there is no profile or no credentials', async () => {
    const none = await cli(['auth', 'status']);
    expect(none.exitCode).toBe(3);
    expect(none.stderr).toBe('error: there is no profile "default"; run `chamberctl login` for a server, or start a local one with `chamberctl serve`\n');
    expectOk(await login());
    expectOk(await cli(['logout', '--yes']));
    const out = await cli(['auth', 'status']);
    expect(out.exitCode).toBe(3);
    expect(out.stdout).toContain('client secret: none');
    expect(out.stderr).toBe('error: profile "default" has no credentials; run `chamberctl login`\n');
  });
});

describe('auth token', () => {
  it('prints the cached token, which works with curl-like clients', async () => {
    expectOk(await login());
    const before = server.tokenRequests();
    const a = await cli(['auth', 'token']);
    const b = await cli(['auth', 'token']);
    expectOk(a);
    expect(a.stdout).toMatch(/^\S+\n$/);
    expect(b.stdout).toBe(a.stdout);
    expect(a.stderr).toBe('');
    expect(server.tokenRequests() - before).toBe(0); // the token login cached
    const res = await fetch(`${server.baseUrl}/v2/chambers?per_page=1`, {
      headers: { authorization: `Bearer ${a.stdout.trim()}` },
    });
    expect(res.status).toBe(200);
  });

  it('fetches and caches a token per version (--api-version v1)', async () => {
    expectOk(await login());
    const before = server.tokenRequests();
    const v1 = await cli(['auth', 'token', '--api-version', 'v1', '--json']);
    expectOk(v1);
    const parsed = JSON.parse(v1.stdout);
    expect(parsed).toMatchObject({ token_type: 'Bearer', api_version: 'v1', profile: 'default' });
    expect(server.tokenRequests() - before).toBe(1);
    expect(readConfig().profiles.default.tokens.v1.accessToken).toBe(parsed.access_token);
    // a v1 token is refused by v2
    const res = await fetch(`${server.baseUrl}/v2/chambers`, { headers: { authorization: `Bearer ${parsed.access_token}` } });
    expect(res.status).toBe(401);
  });

  it('renews a token that expired by the client clock (no 401 needed)', async () => {
    expectOk(await login());
    const config = readConfig();
    const old = config.profiles.default.tokens.v2.accessToken;
    config.profiles.default.tokens.v2.expiresAt = new Date(Date.now() + 30_000).toISOString(); // inside the 60 s margin
    writeFileSync(configPath(), JSON.stringify(config));
    const before = server.tokenRequests();
    const r = await cli(['auth', 'token']);
    expectOk(r);
    expect(r.stdout.trim()).not.toBe(old);
    expect(server.tokenRequests() - before).toBe(1);
    expect(readConfig().profiles.default.tokens.v2.accessToken).toBe(r.stdout.trim());
  });

  it('renews transparently when the server refuses an expired token (401), once', async () => {
    expectOk(await login());
    const old = readConfig().profiles.default.tokens.v2.accessToken;
    serverSkewMs = 2 * 3600_000; // the server thinks two hours passed
    const before = server.tokenRequests();
    const r = await cli(['chambers', 'list', '--type', 'hq', '--per-page', '1', '--json']);
    expectOk(r);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
    expect(server.tokenRequests() - before).toBe(1);
    expect(readConfig().profiles.default.tokens.v2.accessToken).not.toBe(old);
  });

  it('exit 3 when the profile has no credentials', async () => {
    const r = await cli(['auth', 'token']);
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe('');
  });
});

describe('logout', () => {
  it('removes the secret and the cached tokens, keeps URL and client id', async () => {
    expectOk(await login());
    const r = await cli(['logout', '--yes']);
    expectOk(r);
    expect(r.stderr).toBe('logged out: removed the client secret and cached tokens of profile "default"\n');
    const p = readConfig().profiles.default;
    expect(p).toEqual({ baseUrl: server.baseUrl, clientId: server.clientId, apiVersion: 'auto', tokens: {} });
    expectOk(await cli(['logout'])); // twice is fine
    // a later login needs only the secret
    expectOk(await cli(['login', '--client-secret-stdin'], { input: server.clientSecret }));
  });
});

describe('secrets never leak', () => {
  it('no output but `auth token` shows the token; no output shows the secret; logout leaves neither on disk', async () => {
    const outputs: Array<{ cmd: string; r: RunResult }> = [];
    const run = async (args: string[], opts: { env?: Record<string, string>; input?: string } = {}) => {
      const r = await cli(args, opts);
      outputs.push({ cmd: args.join(' '), r });
      expectOk(r);
      return r;
    };
    await run([...loginArgs(), '--client-secret-stdin', '--verbose'], { input: server.clientSecret });
    await run(['auth', 'status']);
    await run(['auth', 'status', '--json', '--verbose']);
    await run(['profiles', 'list']);
    await run(['profiles', 'list', '--json']);
    await run(['chambers', 'list', '--per-page', '2', '--verbose']);
    await run(['chambers', 'list', '--api-version', 'v1', '--per-page', '2', '--verbose', '--json']);
    serverSkewMs = 2 * 3600_000; // force a renewal on a 401, logged with --verbose
    await run(['chambers', 'list', '--per-page', '1', '--verbose']);
    const config = readConfig().profiles.default;
    const tokens = [config.tokens.v1.accessToken, config.tokens.v2.accessToken] as string[];
    const tokenOut = await cli(['auth', 'token']);
    expect(tokens).toContain(tokenOut.stdout.trim());

    const all = outputs.map((o) => `${o.cmd}\n${o.r.stdout}\n${o.r.stderr}`).join('\n');
    expect(all).toContain('[redacted]');
    expect(all).not.toContain(server.clientSecret);
    for (const t of tokens) expect(all).not.toContain(t);
    expect(tokenOut.stderr).not.toContain(server.clientSecret);

    // on disk only in the 0600 config file, and gone after logout
    expect(readdirSync(dir)).toEqual(['config.json']);
    expect(statSync(configPath()).mode & 0o777).toBe(0o600);
    await run(['logout', '--yes']);
    const disk = readdirSync(dir)
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('\n');
    expect(disk).not.toContain(server.clientSecret);
    for (const t of tokens) expect(disk).not.toContain(t);
  });
});
