import { request } from 'node:http';
import { createServer } from 'node:net';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';
import { call } from '../helpers/http.js';
import { runOnPty } from '../helpers/pty.js';
import { logMessages, startServeProcess } from '../helpers/serve-process.js';

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir('chamberctl-serve-');
});
afterAll(() => removeTempDir(dir));

const env = () => ({ CHAMBERCTL_CONFIG_DIR: join(dir, 'config'), CHAMBERCTL_DATA_DIR: join(dir, 'data') });

async function token(baseUrl: string, clientId: string, clientSecret: string) {
  return call(baseUrl, 'POST', '/v2/auth/token', { body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret } });
}

describe('chamberctl serve', () => {
  it('creates a client on a new database, prints its secret once, logs requests, and stops cleanly', async () => {
    const db = join(dir, 'first.db');
    const s = await startServeProcess(['--port', '0', '--db', db], env());
    expect(s.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const out = s.output().stdout;
    expect(out).toContain(`v1: ${s.baseUrl}/v1`);
    expect(out).toContain(`v2: ${s.baseUrl}/v2`);
    expect(out).toContain(`  database: SQLite file ${db}\n`); // the backend in words (issue 43)
    const id = /client id:\s+(\S+)/.exec(out)![1]!;
    // stdout is not a terminal (a server's log): the secret is in a 0600 file it names (issue 43)
    const file = /client secret file:\s+(\S+)/.exec(out)![1]!;
    expect(file).toBe(join(env().CHAMBERCTL_CONFIG_DIR, `${id}.secret`));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const secret = readFileSync(file, 'utf8').trim();
    expect(out).not.toContain(secret);
    expect(id).toMatch(/^[A-Za-z0-9]+$/);
    expect(secret).toMatch(/^[A-Za-z0-9]{32,}$/);
    const t = await token(s.baseUrl, id, secret);
    expect(t.status).toBe(200);
    const list = await call(s.baseUrl, 'GET', '/v2/chambers?filter[type]=hq', { token: t.body.access_token });
    expect(list.body.meta.total).toBeGreaterThan(10); // demo data by default
    const stopped = await s.stop('SIGTERM');
    expect(stopped.exitCode).toBe(0);
    const lines = logMessages(stopped.stderr);
    expect(lines, lines.join('\n')).toContain('GET /v2/chambers?filter%5Btype%5D=hq 200');
    expect(lines).toContain('SIGTERM: stopping; new requests get 503, requests in flight may finish (10 s at most)');
    expect(stopped.stderr).not.toContain(t.body.access_token);
    expect(stopped.stderr).not.toContain(secret);

    // Second start on the same database: no new client, no secret printed, data kept.
    const again = await startServeProcess(['--port', '0', '--db', db, '--quiet'], env());
    expect(again.output().stdout).not.toMatch(/client secret/);
    expect((await token(again.baseUrl, id, secret)).status).toBe(200);
    const r = await again.stop('SIGINT');
    expect(r.exitCode).toBe(0);
    expect(logMessages(r.stderr).filter((l) => /^[A-Z]+ \//.test(l))).toEqual([]); // --quiet
    // local is the current profile already: no advice to use it with --profile (issue 43)
    expect(logMessages(r.stderr)).toContainEqual(expect.stringMatching(/^profile "local" points here.* \(the current profile\)$/));
    expect(r.stderr).not.toContain('use it with --profile local');
  });

  it("prints a new client's secret only to a terminal; off one, --json names the 0600 file instead (issue 43)", async () => {
    const onTerminal = join(dir, 'config-tty');
    const tty = await runOnPty(['serve', '--port', '0', '--db', join(dir, 'tty.db'), '--seed', 'none'], {
      configDir: onTerminal,
      env: { CHAMBERCTL_DATA_DIR: join(dir, 'data') },
      steps: [{ when: /client secret:\s+[A-Za-z0-9]{32,}/, send: '\u0003' }], // then Ctrl-C
    });
    expect(tty.unanswered, tty.output).toBe(0);
    expect(tty.output).toMatch(/its secret is shown only this once/);
    expect(readdirSync(onTerminal).filter((f) => f.endsWith('.secret'))).toEqual([]);

    const s = await startServeProcess(['--port', '0', '--db', join(dir, 'json.db'), '--seed', 'none', '--json'], { ...env(), CHAMBERCTL_CONFIG_DIR: join(dir, 'config-json') });
    const line = JSON.parse(s.output().stdout.split('\n')[0]!);
    expect(line).not.toHaveProperty('client_secret');
    expect(line.client_secret_file).toBe(join(dir, 'config-json', `${line.client_id}.secret`));
    const secret = readFileSync(line.client_secret_file, 'utf8').trim();
    expect((await token(s.baseUrl, line.client_id, secret)).status).toBe(200);
    expect((await s.stop()).exitCode).toBe(0);
  });

  it('registers --client-id/--client-secret and honours --seed none and --json', async () => {
    const s = await startServeProcess(
      ['--port', '0', '--db', ':memory:', '--seed', 'none', '--client-id', 'ci', '--client-secret', 'CiSecret123', '--json'],
      env(),
    );
    const line = JSON.parse(s.output().stdout.split('\n')[0]!);
    expect(line).toEqual({ base_url: s.baseUrl, v1: `${s.baseUrl}/v1`, v2: `${s.baseUrl}/v2`, docs: `${s.baseUrl}/docs`, database: ':memory:' });
    const t = await token(s.baseUrl, 'ci', 'CiSecret123');
    expect(t.status).toBe(200);
    const list = await call(s.baseUrl, 'GET', '/v1/chambers', {
      token: (await call(s.baseUrl, 'POST', '/v1/auth/token', { body: { grant_type: 'client_credentials', client_id: 'ci', client_secret: 'CiSecret123' } })).body.access_token,
    });
    expect(list.body.meta.total).toBe(0);
    expect((await s.stop()).exitCode).toBe(0);
  });

  it('finishes a request in flight when told to stop', async () => {
    const s = await startServeProcess(['--port', '0', '--db', ':memory:', '--seed', 'none', '--client-id', 'ci', '--client-secret', 'CiSecret123', '--quiet'], env());
    const body = JSON.stringify({ grant_type: 'client_credentials', client_id: 'ci', client_secret: 'CiSecret123' });
    const url = new URL(`${s.baseUrl}/v2/auth/token`);
    const answer = new Promise<number>((resolve, reject) => {
      const req = request(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10)); // the request is now in flight
      setTimeout(() => {
        s.proc.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 300);
      }, 200);
    });
    expect(await answer).toBe(200);
    const r = await s.proc;
    expect(r.exitCode).toBe(0);
  });

  it('drains on SIGTERM while a balancer probes readiness: /healthz 503 at once, requests still served, a second signal cuts it short; Ctrl-C and an unprobed serve stop at once', async () => {
    const args = ['--port', '0', '--db', ':memory:', '--seed', 'none', '--client-id', 'ci', '--client-secret', 'CiSecret123', '--quiet'];
    const creds = { body: { grant_type: 'client_credentials', client_id: 'ci', client_secret: 'CiSecret123' } };
    // probed, then SIGTERM: the default drain
    const s = await startServeProcess(args, env());
    expect((await call(s.baseUrl, 'GET', '/healthz')).status).toBe(200);
    process.kill(s.proc.pid!, 'SIGTERM');
    const firstSignal = Date.now();
    await waitForLine(s, /SIGTERM: draining for 8 s before stopping/);
    const health = await call(s.baseUrl, 'GET', '/healthz');
    expect([health.status, health.headers.get('retry-after'), health.headers.get('connection'), health.body]).toEqual([503, '1', 'close', { status: 'unavailable', error: 'the server is stopping (draining: requests are still served)' }]);
    const served = await call(s.baseUrl, 'POST', '/v2/auth/token', creds);
    expect([served.status, served.headers.get('connection')]).toEqual([200, 'close']);
    expect((await call(s.baseUrl, 'GET', '/livez')).status).toBe(200);
    // a repeat within 250 ms is taken for the echo of the first (core/context.ts, onSignal)
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, firstSignal + 400 - Date.now())));
    const cut = Date.now();
    const r = await s.stop('SIGTERM'); // the second signal
    expect(r.exitCode, r.stderr).toBe(0);
    expect(Date.now() - cut, 'the drain cut short').toBeLessThan(5000);
    expect(logMessages(r.stderr)).toContain('SIGTERM: stopping; new requests get 503, requests in flight may finish (10 s at most)');

    // --drain 1, nothing probing: drains all the same, for 1 s
    const one = await startServeProcess([...args, '--drain', '1'], env());
    const started = Date.now();
    const stopped = await one.stop('SIGTERM');
    expect(stopped.exitCode).toBe(0);
    expect(logMessages(stopped.stderr)).toContain('SIGTERM: draining for 1 s before stopping: readiness (/healthz) answers 503, requests are still served');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);

    // probed but Ctrl-C, and SIGTERM to a serve nothing probes: no drain
    for (const [probe, signal] of [[true, 'SIGINT'], [false, 'SIGTERM']] as const) {
      const p = await startServeProcess(args, env());
      if (probe) expect((await call(p.baseUrl, 'GET', '/healthz')).status).toBe(200);
      const out = await p.stop(signal);
      expect(out.exitCode).toBe(0);
      expect(out.stderr).not.toMatch(/draining/);
    }
  });

  it('fails with one line when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = await runCli(['serve', '--port', String(port), '--db', ':memory:', '--seed', 'none'], { configDir: join(dir, 'config') });
      expect(r.exitCode).toBe(1);
      expect(r.stderr.trim().split('\n')).toEqual([`error: port ${port} on 127.0.0.1 is already in use (try --port 0 for a free one)`]);
    } finally {
      blocker.close();
    }
  });

  it('a start that cannot listen creates nothing: the next start makes the client and shows its secret', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const db = join(dir, 'never.db');
    try {
      const r = await runCli(['serve', '--port', String(port), '--db', db], { configDir: join(dir, 'config-never') });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(/already in use/);
      expect(existsSync(db)).toBe(false); // not created, so not seeded and no client without its secret shown
    } finally {
      blocker.close();
    }
    const s = await startServeProcess(['--port', '0', '--db', db], { ...env(), CHAMBERCTL_CONFIG_DIR: join(dir, 'config-never') });
    const out = s.output().stdout;
    expect(out).toMatch(/its secret is in a file only you can read/);
    expect(readFileSync(/client secret file:\s+(\S+)/.exec(out)![1]!, 'utf8')).toMatch(/^[A-Za-z0-9]{32,}\n$/);
    expect((await s.stop()).exitCode).toBe(0);
  });

  it('fails with one line when the database cannot be written', async () => {
    const file = join(dir, 'plain-file');
    writeFileSync(file, 'not a directory');
    const r = await runCli(['serve', '--port', '0', '--db', join(file, 'x.db')], { configDir: join(dir, 'config') });
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: cannot open the database .*x\.db: /);
    const notDb = join(dir, 'not-a-db.db');
    writeFileSync(notDb, 'hello, this is text and not SQLite at all '.repeat(50));
    const r2 = await runCli(['serve', '--port', '0', '--db', notDb], { configDir: join(dir, 'config') });
    expect(r2.exitCode).toBe(1);
    expect(r2.stderr.trim()).toMatch(/^error: cannot open the database .*: the file is not a SQLite database$/);
    // a directory that mkdir cannot make although its parent exists: node's own recursive
    // mkdir would spin forever here
    const r3 = await runCli(['serve', '--port', '0', '--db', '/proc/chamberctl-nope/x.db'], { configDir: join(dir, 'config'), timeout: 15_000 });
    expect(r3.exitCode).toBe(1);
    expect(r3.stderr.trim()).toMatch(/^error: cannot open the database \/proc\/chamberctl-nope\/x\.db: ENOENT[^\n]*$/);
  });

  it('fails with one line when the config directory cannot be made', async () => {
    const r = await runCli(['profiles', 'list'], { configDir: '/proc/chamberctl-nope/config', timeout: 15_000 });
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trim()).toMatch(/^error: cannot create the config directory \/proc\/chamberctl-nope\/config: ENOENT[^\n]*$/);
  });

  it('rejects bad options with exit 2', async () => {
    for (const args of [['--port', 'abc'], ['--port', '70000'], ['--seed', 'lots'], ['--client-id', 'x']]) {
      const r = await runCli(['serve', ...args], { configDir: join(dir, 'config') });
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')[0]).toMatch(/^error: /);
    }
  });

  it('takes a --client-id that `chamberctl clients` can administer, else exit 2 naming the rule', async () => {
    const r = await runCli(['serve', '--db', ':memory:', '--client-id', 'a b', '--client-secret', 'CiSecret123'], { configDir: join(dir, 'config') });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe('error: --client-id must be 1 to 64 characters of A-Z a-z 0-9 . _ - @, not "a b"\n');
  });
});

/** Waits for a line of serve's log that matches `pattern`. */
async function waitForLine(s: Awaited<ReturnType<typeof startServeProcess>>, pattern: RegExp): Promise<void> {
  for (const until = Date.now() + 10_000; !logMessages(s.output().stderr).some((l) => pattern.test(l)); ) {
    if (Date.now() > until) throw new Error(`serve did not log ${pattern}:\n${s.output().stderr}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
