// `members import` when things go wrong: a server that answers 503 for a while, connections
// cut after the server applied the POST, Ctrl-C, and a killed process. In each case the
// final state at the server is exact: every row once, none twice.
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { loggedIn, type LoggedIn } from '../commands/logged-in.js';
import { api, csvFile, HEADER, summaryOf, validRows, type Api } from '../import/e2e-helpers.js';

let server: TestServer;
let cli: LoggedIn;
let directory: Api;
let proxy: FaultProxy;

beforeAll(async () => {
  server = await startTestServer({ seed: 'none' });
  cli = await loggedIn(server);
  directory = await api(server);
  proxy = await startFaultProxy(server.baseUrl);
});
afterAll(async () => {
  await proxy?.close();
  await cli?.cleanup();
  await server?.close();
});

/** Every member once: as many distinct e-mails as members, and as many as the file had rows. */
async function expectExactly(chamberId: string, rows: number) {
  const members = await directory.members(chamberId);
  expect(members).toHaveLength(rows);
  expect(new Set(members.map((m) => m.email.toLowerCase())).size).toBe(rows);
}

/**
 * The proxy is another origin than the one the profile was saved for: the profile's
 * credentials are not sent there, the environment's are (docs/guides/profiles-and-auth.md#where-credentials-go).
 */
const viaProxy = () => ({ CHAMBERCTL_CLIENT_ID: server.clientId, CHAMBERCTL_CLIENT_SECRET: server.clientSecret });

/** The built CLI as a child process we can signal. */
function spawnImport(args: string[]) {
  return execa(process.execPath, [BIN, 'members', 'import', ...args], {
    env: { ...cleanEnv(), CHAMBERCTL_CONFIG_DIR: cli.dir, ...viaProxy() },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: 60_000,
  });
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('members import, resilience', () => {
  it('a server that answers 503 for a while and cuts connections after applying a POST: every row ends up created once', async () => {
    const ch = await directory.newChamber();
    const file = await csvFile(cli.dir, 'flaky.csv', HEADER + validRows(200, 'flaky'));
    proxy.failNext(24, 503);
    proxy.dropAfterForward(5);
    const tokensBefore = server.tokenRequests();
    // through the proxy (--base-url, another origin): the environment's credentials, so this import needs its own token
    const r = await cli.run(['members', 'import', ch, file, '--json', '--base-url', proxy.baseUrl], viaProxy());
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const summary = summaryOf(r.stdout);
    expect(proxy.stats.failed).toBe(24);
    expect(proxy.stats.dropped).toBe(5);
    // a POST cut off after it landed is repeated and answered 409: it counts as skipped
    expect(summary.created + summary.skipped).toBe(200);
    expect(summary.skipped).toBeGreaterThanOrEqual(1);
    expect(summary.skipped).toBeLessThanOrEqual(5);
    expect(summary.failed).toBe(0);
    await expectExactly(ch, 200);
    // one token for the whole import, however many requests wait for it at the start
    expect(server.tokenRequests() - tokensBefore).toBe(1);
  });

  it('Ctrl-C: stops reading, lets the requests in flight finish, prints the summary, exits 130; the same command again finishes', async () => {
    const ch = await directory.newChamber();
    const rows = 1500;
    const file = await csvFile(cli.dir, 'sigint.csv', HEADER + validRows(rows, 'sigint'));
    proxy.delayMs = 10;
    try {
      const proc = spawnImport([ch, file, '--json', '--concurrency', '4', '--base-url', proxy.baseUrl]);
      await waitFor('some rows to be created', async () => (await directory.count(ch)) >= 60);
      proc.kill('SIGINT');
      const r = await proc;
      expect(r.exitCode).toBe(130);
      const summary = summaryOf(r.stdout);
      expect(summary.interrupted).toBe(true);
      expect(summary.rows).toBeLessThan(rows);
      // the summary comes after the requests in flight finished: it matches the server exactly
      expect(summary.created).toBe(await directory.count(ch));
      expect(summary.created).toBe(summary.rows);
      expect(r.stderr).toContain('stopping: ');
      expect(r.stderr).toContain(`interrupted after line ${summary.last_line}: run the same command again to finish`);

      const again = await cli.run(['members', 'import', ch, file, '--json']);
      expect(again.exitCode).toBe(0);
      expect(summaryOf(again.stdout)).toMatchObject({ created: rows - summary.created, skipped: summary.created });
      await expectExactly(ch, rows);
    } finally {
      proxy.delayMs = 0;
    }
  });

  it('a process killed part-way (SIGKILL), then the same command again: nothing lost, nothing doubled', async () => {
    const ch = await directory.newChamber();
    const rows = 1500;
    const file = await csvFile(cli.dir, 'killed.csv', HEADER + validRows(rows, 'killed'));
    proxy.delayMs = 10;
    let before: number;
    try {
      const proc = spawnImport([ch, file, '--json', '--concurrency', '8', '--base-url', proxy.baseUrl]);
      await waitFor('some rows to be created', async () => (await directory.count(ch)) >= 60);
      proc.kill('SIGKILL');
      const r = await proc;
      expect(r.signal).toBe('SIGKILL');
      // requests that were on their way still land; then the count is still
      await new Promise((res) => setTimeout(res, 300));
      before = await directory.count(ch);
      expect(before).toBeLessThan(rows);
    } finally {
      proxy.delayMs = 0;
    }
    const again = await cli.run(['members', 'import', ch, file, '--json']);
    expect(again.exitCode).toBe(0);
    expect(summaryOf(again.stdout)).toMatchObject({ rows, created: rows - before, skipped: before, failed: 0 });
    await expectExactly(ch, rows);
  });

  it('rows that still fail after the retries are reported, the import goes on, and the report feeds them back in', async () => {
    const ch = await directory.newChamber();
    const file = await csvFile(cli.dir, 'down.csv', HEADER + validRows(30, 'down'));
    const report = `${cli.dir}/down-report.csv`;
    // Retry-After: 0 keeps the retries quick; 8 attempts each for the first two rows (concurrency 1)
    proxy.failNext(16, 503, '0');
    const r = await cli.run(['members', 'import', ch, file, '--json', '--concurrency', '1', '--report', report, '--base-url', proxy.baseUrl], viaProxy());
    expect(r.exitCode).toBe(1);
    expect(summaryOf(r.stdout)).toMatchObject({ created: 28, failed: 2 });
    expect(r.stderr).toBe(
      `line 2 (failed): the server at ${proxy.baseUrl} failed: HTTP 503 Service Unavailable (the service is unavailable, try again later)\n` +
        `line 3 (failed): the server at ${proxy.baseUrl} failed: HTTP 503 Service Unavailable (the service is unavailable, try again later)\n`,
    );
    const again = await cli.run(['members', 'import', ch, report, '--json']);
    expect(again.exitCode).toBe(0);
    expect(summaryOf(again.stdout)).toMatchObject({ rows: 2, created: 2 });
    await expectExactly(ch, 30);
  });
});
