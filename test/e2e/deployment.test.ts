// A team's deployment as teams run one, with the real programs as children of the test, each
// run from the configuration file docs/operations/deploy/ shows (but for its addresses and
// paths), so that the docs cannot drift from what was tested: PgBouncer 1.18 in transaction
// pooling between two `serve` instances and PostgreSQL; HAProxy 2.6 with health checks in front
// of two instances restarted one at a time under steady load; nginx ending TLS; and the
// systemd unit, checked by systemd-analyze. On PostgreSQL, in the PostgreSQL pass only
// (vitest.config.ts). The tools come from scripts/test-tools.sh, which npm test runs first.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, makeTempDir, removeTempDir } from '../helpers/cli.js';
import { freePort } from '../helpers/directory-walk.js';
import { call } from '../helpers/http.js';
import { createTestDatabase, PG_ADMIN_URL, type TestDatabase } from '../helpers/postgres.js';
import { noteSecret } from '../helpers/run-logs.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEPLOY = join(ROOT, 'docs', 'operations', 'deploy');
const CLIENT = { id: 'app', secret: 'DeploySecret0123456789abcdef' };
noteSecret(CLIENT.secret);
const PG_HOST = new URL(PG_ADMIN_URL).hostname;
const PG_PORT = new URL(PG_ADMIN_URL).port || '5432';
/** The user that PgBouncer runs as (it refuses root): this one, or postgres when this is root. */
const POOLER_USER = process.getuid?.() === 0 ? { uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })), gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })) } : undefined;

let dir: string;
const children = new Set<ChildProcess>();
const servers = new Set<ServeProcess>();
const databases: TestDatabase[] = [];
beforeAll(async () => {
  dir = await makeTempDir('chamberctl-deploy-');
  chmodSync(dir, 0o755); // PgBouncer, as another user, reads its files here
});
afterAll(async () => {
  await Promise.all([...servers].map((s) => s.stop().catch(() => undefined)));
  for (const c of children) c.kill('SIGKILL');
  await Promise.all(databases.map((d) => d.drop()));
  await removeTempDir(dir);
});

/** A docs/operations/deploy/ file with `replacements` made, each of which must be found there. */
function deployFile(name: string, replacements: [string, string][]): string {
  let text = readFileSync(join(DEPLOY, name), 'utf8');
  for (const [from, to] of replacements) {
    expect(text.includes(from), `${name} no longer has ${from}`).toBe(true);
    text = text.split(from).join(to);
  }
  return text;
}

/** A program of the deployment, in the foreground, killed when the file is done. */
function run(command: string, args: string[], opts: { uid?: number; gid?: number } = {}): { proc: ChildProcess; output: () => string } {
  const proc = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' }, ...opts });
  let output = '';
  proc.stdout!.on('data', (d: Buffer) => (output += d));
  proc.stderr!.on('data', (d: Buffer) => (output += d));
  children.add(proc);
  proc.on('exit', () => children.delete(proc));
  return { proc, output: () => output };
}

async function waitUntil(what: string, check: () => Promise<boolean> | boolean, withinMs = 30_000): Promise<void> {
  const until = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`${what}: not within ${withinMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const answers = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(2000) }).then(
    (r) => r.status,
    () => 0,
  );

async function serve(name: string, db: string, args: string[]): Promise<ServeProcess> {
  const s = await startServeProcess(['--db', db, '--client-id', CLIENT.id, '--client-secret', CLIENT.secret, '--seed', 'demo', '--quiet', ...args], {
    CHAMBERCTL_CONFIG_DIR: join(dir, `config-${name}`),
  });
  servers.add(s);
  return s;
}

async function stopServe(s: ServeProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<{ exitCode: number | undefined; stderr: string }> {
  servers.delete(s);
  return s.stop(signal);
}

async function token(baseUrl: string, creds = CLIENT, version = 'v2'): Promise<string> {
  const r = await call(baseUrl, 'POST', `/${version}/auth/token`, { body: { grant_type: 'client_credentials', client_id: creds.id, client_secret: creds.secret } });
  expect(r.status, r.text).toBe(200);
  return r.body.access_token;
}

async function connectionsTo(database: string): Promise<number> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1', [database]);
    return Number(rows[0]!.n);
  } finally {
    await admin.end();
  }
}

/** `n` GETs of a list at once on each instance: every connection of their pools busy. */
async function burst(bases: string[], tokenOf: Map<string, string>, n = 30): Promise<void> {
  const all = bases.flatMap((b) => Array.from({ length: n }, () => call(b, 'GET', '/v2/chambers?per_page=50', { token: tokenOf.get(b)! })));
  for (const r of await Promise.all(all)) expect(r.status).toBe(200);
}

describe('through PgBouncer 1.18 in transaction pooling, with its default settings', () => {
  let db: TestDatabase;
  let pooler: ReturnType<typeof run>;
  let port: number;
  let url: string;
  const PASSWORD = 'PoolerPassword0123';
  noteSecret(PASSWORD);

  const startPooler = () => {
    pooler = run('pgbouncer', [join(dir, 'pgbouncer', 'pgbouncer.ini')], POOLER_USER ?? {});
    return waitUntil('PgBouncer listens', async () => {
      const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
      try {
        await c.connect();
        await c.end();
        return true;
      } catch {
        return false;
      }
    });
  };

  beforeAll(async () => {
    db = await createTestDatabase('chamberctl_pooled');
    databases.push(db);
    port = await freePort();
    const home = join(dir, 'pgbouncer');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'userlist.txt'), `"postgres" "${PASSWORD}"\n`, { mode: 0o600 });
    writeFileSync(
      join(home, 'pgbouncer.ini'),
      deployFile('pgbouncer.ini', [
        ['host=127.0.0.1 port=5432 dbname=directory', `host=${PG_HOST} port=${PG_PORT} dbname=${db.name}`],
        ['listen_port = 6432', `listen_port = ${port}`],
        ['/etc/pgbouncer/userlist.txt', join(home, 'userlist.txt')],
        ['/var/log/postgresql/pgbouncer.log', join(home, 'pgbouncer.log')],
        ['/run/postgresql/pgbouncer.pid', join(home, 'pgbouncer.pid')],
      ]),
    );
    if (POOLER_USER) for (const f of ['', 'userlist.txt', 'pgbouncer.ini']) chownSync(join(home, f), POOLER_USER.uid, POOLER_USER.gid);
    url = `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/directory`;
    await startPooler();
  }, 60_000);

  it('two instances started together serve the interface, share tokens and writes, and hold few connections', async () => {
    const [a, b] = await Promise.all([serve('pooled-a', url, ['--port', '0', '--pg-pooler', 'transaction']), serve('pooled-b', url, ['--port', '0', '--pg-pooler', 'transaction'])]);
    const tokenOf = new Map([
      [a.baseUrl, await token(a.baseUrl)],
      [b.baseUrl, await token(b.baseUrl)],
    ]);
    // a token of one instance on the other; each list the same on both
    const ta = tokenOf.get(a.baseUrl)!;
    const someChamber = (await call(a.baseUrl, 'GET', '/v2/chambers?per_page=1&sort=name', { token: ta })).body.data[0].id as string;
    for (const path of ['/v2/chambers?per_page=100&sort=name', `/v2/chambers/${someChamber}/members?per_page=100`, `/v2/chambers/${someChamber}/events?per_page=100`]) {
      const [ra, rb] = [await call(a.baseUrl, 'GET', path, { token: ta }), await call(b.baseUrl, 'GET', path, { token: ta })];
      expect(ra.status).toBe(200);
      expect(rb.text).toBe(ra.text);
    }
    // writes through one, read through the other; an idempotent retry; a race on one address
    const hq = await call(a.baseUrl, 'POST', '/v2/chambers', { token: ta, body: { name: 'Pooled HQ', type: 'hq', address: { street: '1 Quay', city: 'Ghent', country: 'BE' } } });
    expect(hq.status).toBe(201);
    expect((await call(b.baseUrl, 'GET', `/v2/chambers/${hq.body.id}`, { token: ta })).body.name).toBe('Pooled HQ');
    const member = { name: 'Pooled', email: 'pooled@example.org', membership_type: 'standard' };
    const once = { token: ta, body: member, headers: { 'idempotency-key': 'pooled-1' } };
    const first = await call(a.baseUrl, 'POST', `/v2/chambers/${hq.body.id}/members`, once);
    const again = await call(b.baseUrl, 'POST', `/v2/chambers/${hq.body.id}/members`, once);
    expect([first.status, again.status, again.body.id]).toEqual([201, 201, first.body.id]);
    const race = await Promise.all(Array.from({ length: 10 }, (_, i) => call(i % 2 ? a.baseUrl : b.baseUrl, 'POST', `/v2/chambers/${hq.body.id}/members`, { token: ta, body: { ...member, email: 'race@example.org' } })));
    expect(race.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);

    // team access: a read client made by the operator (directly on PostgreSQL) reads through
    // either instance and is refused a write
    const added = JSON.parse((await execa(process.execPath, [BIN, 'clients', 'add', 'reader', '--scope', 'read', '--db', db.url, '--json'], { env: cleanEnv(), extendEnv: false })).stdout);
    noteSecret(added.client_secret);
    const tr = await token(b.baseUrl, { id: 'reader', secret: added.client_secret });
    expect((await call(a.baseUrl, 'GET', '/v2/chambers?per_page=1', { token: tr })).status).toBe(200);
    expect((await call(b.baseUrl, 'POST', '/v2/chambers', { token: tr, body: { name: 'No', type: 'hq', address: { street: '1', city: 'X', country: 'BE' } } })).status).toBe(403);

    // connections: through PgBouncer, those of its pool; directly, those of both instances' pools
    await burst([a.baseUrl, b.baseUrl], tokenOf);
    const pooled = await connectionsTo(db.name);
    const [da, dbb] = await Promise.all([serve('direct-a', db.url, ['--port', '0']), serve('direct-b', db.url, ['--port', '0'])]);
    const directTokens = new Map([
      [da.baseUrl, await token(da.baseUrl)],
      [dbb.baseUrl, await token(dbb.baseUrl)],
    ]);
    await burst([da.baseUrl, dbb.baseUrl], directTokens);
    const withDirect = await connectionsTo(db.name);
    console.log(`PostgreSQL connections to the database: ${pooled} with two instances through PgBouncer, ${withDirect - pooled} more with two instances connected directly`);
    expect(pooled).toBeLessThanOrEqual(20); // default_pool_size of the docs' file
    for (const s of [da, dbb]) expect((await stopServe(s)).exitCode).toBe(0);

    // PgBouncer restarted under load: 503 while it is away, then served again; no instance dies
    const load = [a.baseUrl, b.baseUrl].map((base) => {
      const seen: number[] = [];
      let on = true;
      const loop = (async () => {
        while (on) seen.push((await call(base, 'GET', '/v2/chambers?per_page=5', { token: ta }).catch(() => ({ status: 0 }))).status);
      })();
      return { seen, stop: async () => ((on = false), await loop) };
    });
    await new Promise((r) => setTimeout(r, 300));
    pooler.proc.kill('SIGTERM'); // PgBouncer's immediate shutdown
    await new Promise((r) => pooler.proc.once('exit', r));
    await new Promise((r) => setTimeout(r, 500));
    await startPooler();
    await waitUntil('both instances ready again', async () => (await answers(`${a.baseUrl}/healthz`)) === 200 && (await answers(`${b.baseUrl}/healthz`)) === 200);
    await new Promise((r) => setTimeout(r, 300));
    for (const l of load) {
      await l.stop();
      expect(new Set(l.seen), 'only 200s and the outage 503s').toEqual(new Set(l.seen.filter((s) => s === 200 || s === 503)));
      expect(l.seen.at(-1)).toBe(200);
      expect(l.seen).toContain(503);
    }
    for (const s of [a, b]) expect((await stopServe(s)).exitCode).toBe(0);
  }, 120_000);

  it('a database PgBouncer does not know is refused in its words, not as "connection exception"', async () => {
    const r = await execa(process.execPath, [BIN, 'serve', '--port', '0', '--db', url.replace(/\/directory$/, '/nosuchdb'), '--pg-pooler', 'transaction'], {
      env: { ...cleanEnv(), CHAMBERCTL_CONFIG_DIR: join(dir, 'config-refused') },
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
      timeout: 20_000,
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: cannot open the database postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/nosuchdb: the server refused the connection: no such database: nosuchdb$/m);
    expect(r.stderr).not.toContain(PASSWORD);
  });
});

/** HAProxy's view of each server of the backend `serve` (its stats page as CSV): UP, DOWN, ... */
async function haproxyStates(statsPort: number): Promise<Record<string, string>> {
  const csv = await fetch(`http://127.0.0.1:${statsPort}/stats;csv`).then((r) => r.text());
  const states: Record<string, string> = {};
  for (const line of csv.split('\n')) {
    const f = line.split(',');
    if (f[0] === 'serve' && f[1] !== 'BACKEND') states[f[1]!] = f[17]!;
  }
  return states;
}

describe('behind HAProxy 2.6 with health checks, restarted one instance at a time', () => {
  it('loses no request under steady load: every answer reaches its client, every 201 is in the database once', async () => {
    const db = await createTestDatabase('chamberctl_rolling');
    databases.push(db);
    const [front, portA, portB, stats] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    const cfg = join(dir, 'haproxy.cfg');
    writeFileSync(
      cfg,
      deployFile('haproxy.cfg', [
        ['bind 127.0.0.1:8080', `bind 127.0.0.1:${front}`],
        ['server a 127.0.0.1:8081', `server a 127.0.0.1:${portA}`],
        ['server b 127.0.0.1:8082', `server b 127.0.0.1:${portB}`],
        ['bind 127.0.0.1:8404', `bind 127.0.0.1:${stats}`],
      ]),
    );
    const ports = { a: portA, b: portB } as const;
    const instance = (name: 'a' | 'b') => serve(`rolling-${name}`, db.url, ['--port', String(ports[name])]);
    const running = { a: await instance('a'), b: await instance('b') };
    const haproxy = run('haproxy', ['-f', cfg, '-db']);
    const base = `http://127.0.0.1:${front}`;
    await waitUntil('HAProxy sees both instances up', async () => {
      const s = await haproxyStates(stats).catch(() => ({}) as Record<string, string>);
      return s.a === 'UP' && s.b === 'UP';
    });
    const t = await token(base);
    const chamber = (await call(base, 'GET', '/v2/chambers?per_page=1', { token: t })).body.data[0].id as string;

    // 150 requests a second through HAProxy: lists, lookups and new members, 1 in 3 a write
    const outcomes: { status: number | string; email?: string; id?: string }[] = [];
    let sent = 0;
    let loadOn = true;
    const inFlight = new Set<Promise<void>>();
    const one = (i: number) => {
      const email = `roll-${i}@example.org`;
      const write = i % 3 === 0;
      const p = (write
        ? call(base, 'POST', `/v2/chambers/${chamber}/members`, { token: t, body: { name: `Roll ${i}`, email, membership_type: 'standard' }, headers: { 'idempotency-key': `roll-${i}` } })
        : call(base, 'GET', i % 3 === 1 ? '/v2/chambers?per_page=5' : `/v2/chambers/${chamber}`, { token: t })
      ).then(
        (r) => void outcomes.push({ status: r.status, ...(write && { email, id: r.body?.id }) }),
        (e: Error) => void outcomes.push({ status: (e.cause as { code?: string })?.code ?? e.message }),
      );
      inFlight.add(p);
      void p.then(() => inFlight.delete(p));
    };
    const ticker = setInterval(() => {
      if (loadOn) for (let k = 0; k < 3; k++) one(sent++);
    }, 20);

    // the rolling restart, as `systemctl restart` does each: SIGTERM, wait for the exit, start
    // at once; the next instance only once HAProxy has the restarted one back
    const outOfPool: Record<string, number> = {};
    for (const name of ['a', 'b'] as const) {
      const terminated = Date.now();
      let leftAt: number | undefined;
      const watch = setInterval(() => {
        void haproxyStates(stats).then(
          // DOWN once its failed checks reach `fall` (UP 1/3, UP 2/3 on the way: still in the pool)
          (s) => void (s[name]?.startsWith('DOWN') && (leftAt ??= Date.now())),
          () => undefined,
        );
      }, 100);
      const stopped = await stopServe(running[name]);
      expect(stopped.exitCode, stopped.stderr).toBe(0);
      expect(stopped.stderr).toMatch(/SIGTERM: draining for 8 s before stopping/);
      running[name] = await instance(name);
      await waitUntil(`HAProxy has ${name} back`, async () => (await haproxyStates(stats).catch(() => ({}) as Record<string, string>))[name] === 'UP');
      clearInterval(watch);
      expect(leftAt, `HAProxy never took ${name} out of the pool`).toBeDefined();
      outOfPool[name] = (Date.now() - leftAt!) / 1000;
      console.log(`instance ${name}: out of HAProxy's pool for ${outOfPool[name]!.toFixed(1)} s (left it ${((leftAt! - terminated) / 1000).toFixed(1)} s after SIGTERM)`);
    }
    await new Promise((r) => setTimeout(r, 500));
    loadOn = false;
    clearInterval(ticker);
    await Promise.all(inFlight);
    haproxy.proc.kill('SIGTERM');

    const bad = outcomes.filter((o) => o.status !== 200 && o.status !== 201);
    console.log(`${outcomes.length} requests through HAProxy during the rolling restart, ${bad.length} without their answer`);
    expect(outcomes.length).toBeGreaterThan(1000);
    expect(bad).toEqual([]);
    expect(Object.keys(outOfPool)).toEqual(['a', 'b']);
    // every 201 in the database once, and nothing else written
    const created = outcomes.filter((o) => o.status === 201);
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ email: string; n: string }>("SELECT email, count(*) AS n FROM members WHERE email LIKE 'roll-%' GROUP BY email");
      expect(rows.length).toBe(created.length);
      expect(rows.every((r) => r.n === '1')).toBe(true);
      expect(new Set(rows.map((r) => r.email))).toEqual(new Set(created.map((o) => o.email)));
    } finally {
      await admin.end();
    }
    for (const name of ['a', 'b'] as const) expect((await stopServe(running[name])).exitCode).toBe(0);
  }, 180_000);
});

/** An HTTPS request to nginx from 127.0.0.2 (the client's address, not nginx's 127.0.0.1). */
function viaNginx(port: number, ca: Buffer, method: string, path: string, opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        localAddress: '127.0.0.2',
        ca,
        servername: 'directory.example.org',
        headers: { host: 'directory.example.org', ...(opts.token && { authorization: `Bearer ${opts.token}` }), ...(body && { 'content-type': 'application/json' }), ...opts.headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('behind nginx 1.22 ending TLS', () => {
  it('with --trust-proxy naming nginx: the public URL in the metadata and documents, the client’s address in the audit trail; without it, a client’s X-Forwarded-For changes nothing', async () => {
    const db = await createTestDatabase('chamberctl_tls');
    databases.push(db);
    const [front, portA, portB] = await Promise.all([freePort(), freePort(), freePort()]);
    const tls = join(dir, 'tls');
    mkdirSync(tls, { recursive: true });
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=directory.example.org', '-addext', 'subjectAltName=DNS:directory.example.org', '-keyout', join(tls, 'key.pem'), '-out', join(tls, 'cert.pem')], { stdio: 'ignore' });
    const conf = join(dir, 'nginx.conf');
    writeFileSync(
      conf,
      deployFile('nginx.conf', [
        ['pid /run/chamberctl-nginx.pid;', `pid ${join(dir, 'nginx.pid')};`],
        ['server 127.0.0.1:8081;', `server 127.0.0.1:${portA};`],
        ['server 127.0.0.1:8082;', `server 127.0.0.1:${portB};`],
        ['listen 127.0.0.1:8443 ssl;', `listen 127.0.0.1:${front} ssl;`],
        ['/etc/chamberctl/tls/', `${tls}/`],
      ]),
    );
    const ca = readFileSync(join(tls, 'cert.pem'));
    const PUBLIC = 'https://directory.example.org';
    // in the foreground, its temporary files under the test's directory (and, as root, its
    // workers as root too, since they read nothing but what the test wrote)
    const nginx = run('nginx', ['-p', `${dir}/`, '-c', conf, '-g', `daemon off;${process.getuid?.() === 0 ? ' user root;' : ''}`]);
    const pair = async (extra: string[]) => [await serve('tls-a', db.url, ['--port', String(portA), '--public-url', PUBLIC, ...extra]), await serve('tls-b', db.url, ['--port', String(portB), '--public-url', PUBLIC, ...extra])];
    let instances = await pair(['--trust-proxy', '127.0.0.1']);
    await waitUntil('nginx answers', async () => (await viaNginx(front, ca, 'GET', '/livez').then((r) => r.status, () => 0)) === 200, 20_000).catch((e: Error) => {
      throw new Error(`${e.message}\n${nginx.output()}`);
    });

    const metadata = await viaNginx(front, ca, 'GET', '/.well-known/oauth-authorization-server/v2');
    expect(metadata.body.token_endpoint).toBe(`${PUBLIC}/v2/auth/token`);
    const document = await viaNginx(front, ca, 'GET', '/v2/openapi.json');
    expect(document.body.servers.map((s: { url: string }) => s.url)).toContain(`${PUBLIC}/v2`);

    const t = (await viaNginx(front, ca, 'POST', '/v2/auth/token', { body: { grant_type: 'client_credentials', client_id: CLIENT.id, client_secret: CLIENT.secret } })).body.access_token as string;
    noteSecret(t);
    const address = async (name: string, headers: Record<string, string> = {}) => {
      const made = await viaNginx(front, ca, 'POST', '/v2/chambers', { token: t, headers, body: { name, type: 'hq', address: { street: '1 Quay', city: 'Ghent', country: 'BE' } } });
      expect(made.status).toBe(201);
      const audit = await execa(process.execPath, [BIN, 'audit', '--db', db.url, '--json'], { env: cleanEnv(), extendEnv: false });
      const records = JSON.parse(audit.stdout) as { target: string; address?: string }[];
      return records.find((r) => r.target === made.body.id)?.address;
    };
    expect(await address('Trusted HQ', { 'x-forwarded-for': '203.0.113.9' })).toBe('127.0.0.2');

    for (const s of instances) expect((await stopServe(s)).exitCode).toBe(0);
    instances = await pair([]);
    expect(await address('Untrusted HQ', { 'x-forwarded-for': '203.0.113.9' })).toBe('127.0.0.1');
    for (const s of instances) expect((await stopServe(s)).exitCode).toBe(0);
    nginx.proc.kill('SIGQUIT');
  }, 120_000);
});

describe('the systemd unit of docs/operations/deploy/', () => {
  it('is clean in systemd-analyze verify', async () => {
    const unit = join(dir, 'chamberctl.service');
    writeFileSync(unit, deployFile('chamberctl.service', [['ExecStart=/usr/local/bin/chamberctl ', `ExecStart=${join(ROOT, 'bin', 'chamberctl')} `]]));
    const r = await execa('systemd-analyze', ['verify', unit], { reject: false, env: { ...cleanEnv(), SYSTEMD_LOG_LEVEL: 'warning' }, extendEnv: false });
    expect({ exitCode: r.exitCode, complaints: `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => l.includes('chamberctl.service')) }).toEqual({ exitCode: 0, complaints: [] });
  });
});
