// A shared deployment's contract when the database fails (docs/server-behaviour.md#deadline;
// issue 25): two `serve` instances with --pool-size 5 on one PostgreSQL
// database, each behind a TCP fault proxy of its own, under a mixed load every 25 ms.
// Through a silent (7 s), a resetting and a refusing network (4 s each), and a real stop and
// start of a PostgreSQL server (a throwaway cluster on a port of its own, never the shared one):
// every request answered within 5 s (2xx, or 503 JSON with Retry-After), /healthz 503 while
// the database is gone, /livez 200 throughout, recovery within 30 s, no instance exits, and
// never more than 5 connections per instance in pg_stat_activity. Then SIGTERM (half-sent
// POST, idle keep-alive sockets, right after a fault): exit 0 within 12 s, nothing left on
// the database. Runs against PostgreSQL in both passes, as shared-deployment.test.ts does.
import { request as httpRequest, Agent, type IncomingHttpHeaders } from 'node:http';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../helpers/cli.js';
import { checkServeAnswer } from '../helpers/conformance.js';
import { call } from '../helpers/http.js';
import { createThrowawayCluster, type ThrowawayCluster } from '../helpers/pg-cluster.js';
import { createTestDatabase, PG_ADMIN_URL, type TestDatabase } from '../helpers/postgres.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { startTcpFaultProxy, type FaultMode, type TcpFaultProxy } from '../helpers/tcp-fault-proxy.js';

const CLIENT = { id: 'outageapp', secret: 'OutageSecret0123456789abcdef' };
const POOL = 5;
const ANSWER_MS = 5000; // every request answered within this (the client gives up then)
const RECOVER_MS = 30_000;
const EXIT_MS = 12_000;
const FAULT_MS = 4000;
// A silent network holds each stream intact, so what was sent at its start arrives when it
// ends: under 5 s of silence every request would be answered within 5 s however long the
// server waits. It lasts longer than the bound, so that waiting without a timeout shows.
const SILENCE_MS = 7000;
const RUN = `${process.pid.toString(36)}${Date.now().toString(36)}`;

// ---------------------------------------------------------------------------- instances

interface Instance {
  name: string;
  /** Its application_name in pg_stat_activity. */
  app: string;
  serve: ServeProcess;
  baseUrl: string;
  port: number;
  token: string;
  chamberId: string;
  proxy?: TcpFaultProxy;
}

let dataDir: string;
const running: ServeProcess[] = [];
const proxies: TcpFaultProxy[] = [];

async function startInstance(name: string, dbUrl: string, opts: { proxy?: TcpFaultProxy; seed?: string } = {}): Promise<Instance> {
  const app = `outage_${RUN}_${name}`;
  const url = new URL(dbUrl);
  if (opts.proxy) {
    url.hostname = '127.0.0.1';
    url.port = String(opts.proxy.port);
  }
  url.searchParams.set('application_name', app);
  const serve = await startServeProcess(
    ['--port', '0', '--db', url.toString(), '--pool-size', String(POOL), '--seed', opts.seed ?? 'none',
      '--client-id', CLIENT.id, '--client-secret', CLIENT.secret, '--json'],
    { CHAMBERCTL_CONFIG_DIR: `${dataDir}/config-${name}` },
  );
  running.push(serve);
  const creds = { grant_type: 'client_credentials', client_id: CLIENT.id, client_secret: CLIENT.secret };
  const t = await call(serve.baseUrl, 'POST', '/v2/auth/token', { body: creds });
  expect(t.status, t.text).toBe(200);
  const list = await call(serve.baseUrl, 'GET', '/v2/chambers?per_page=1&sort=name', { token: t.body.access_token });
  expect(list.status, list.text).toBe(200);
  return {
    name,
    app,
    serve,
    baseUrl: serve.baseUrl,
    port: Number(new URL(serve.baseUrl).port),
    token: t.body.access_token,
    chamberId: list.body.data[0]?.id,
    ...(opts.proxy ? { proxy: opts.proxy } : {}),
  };
}

async function newProxy(): Promise<TcpFaultProxy> {
  const admin = new URL(PG_ADMIN_URL);
  const p = await startTcpFaultProxy({ host: admin.hostname, port: Number(admin.port || 5432) });
  proxies.push(p);
  return p;
}

const exited = (i: Instance) => i.serve.proc.exitCode !== null || i.serve.proc.signalCode !== null;

/** Signals the process; its exit code and how long it took, or `exitCode: 'none'` (then killed) when it did not exit in time. */
async function stopWithin(i: Instance, signal: NodeJS.Signals, ms = EXIT_MS): Promise<{ exitCode: number | string; ms: number }> {
  const t0 = performance.now();
  process.kill(i.serve.proc.pid!, signal); // not proc.kill(): execa would send SIGKILL 5 s later
  const r = await Promise.race([i.serve.proc, sleep(ms).then(() => undefined)]);
  if (!r) {
    i.serve.proc.kill('SIGKILL');
    await i.serve.proc;
    return { exitCode: `none within ${ms / 1000} s (killed)`, ms: performance.now() - t0 };
  }
  return { exitCode: r.exitCode ?? `signal ${r.signal}`, ms: performance.now() - t0 };
}

async function kill(i: Instance | undefined): Promise<void> {
  if (!i || exited(i)) return;
  i.serve.proc.kill('SIGKILL');
  await i.serve.proc;
}

// ---------------------------------------------------------------------------- requests

type Kind = 'token' | 'list' | 'get' | 'member' | 'healthz' | 'livez' | 'probe';
const LOAD: Kind[] = ['token', 'list', 'get', 'member'];
const EXPECTED: Record<Kind, number> = { token: 200, list: 200, get: 200, member: 201, healthz: 200, livez: 200, probe: 200 };

interface Outcome {
  instance: string;
  kind: Kind;
  /** performance.now() when sent, and ms to the whole answer. */
  at: number;
  ms: number;
  status?: number;
  /** No answer: timed out after 5 s, or the connection failed. */
  error?: string;
  json?: boolean;
  retryAfter?: string | null;
  /** What is wrong with it against the server's OpenAPI document. */
  problem?: string;
}

let seq = 0;

function requestOf(i: Instance, kind: Kind): { method: string; path: string; headers: Record<string, string>; body?: string } {
  const auth = { authorization: `Bearer ${i.token}` };
  const json = { 'content-type': 'application/json' };
  switch (kind) {
    case 'token':
      return { method: 'POST', path: '/v2/auth/token', headers: json, body: JSON.stringify({ grant_type: 'client_credentials', client_id: CLIENT.id, client_secret: CLIENT.secret }) };
    case 'list':
      return { method: 'GET', path: '/v2/chambers', headers: auth };
    case 'probe':
      return { method: 'GET', path: '/v2/chambers?per_page=1', headers: auth };
    case 'get':
      return { method: 'GET', path: `/v2/chambers/${i.chamberId}`, headers: auth };
    case 'member': {
      const n = ++seq;
      const body = { name: `Load ${n}`, email: `load-${RUN}-${n}@example.org`, membership_type: 'standard' };
      return { method: 'POST', path: `/v2/chambers/${i.chamberId}/members`, headers: { ...auth, ...json }, body: JSON.stringify(body) };
    }
    default:
      return { method: 'GET', path: `/${kind}`, headers: {} };
  }
}

async function send(i: Instance, kind: Kind): Promise<Outcome> {
  const r = requestOf(i, kind);
  const at = performance.now();
  try {
    const res = await fetch(`${i.baseUrl}${r.path}`, { method: r.method, headers: r.headers, body: r.body, signal: AbortSignal.timeout(ANSWER_MS) });
    const text = await res.text();
    const ms = performance.now() - at;
    let json = false;
    try {
      json = /^application\/json/.test(res.headers.get('content-type') ?? '') && JSON.parse(text) !== undefined;
    } catch {
      json = false;
    }
    let problem: string | undefined;
    try {
      checkServeAnswer(i.baseUrl, { method: r.method, url: r.path, status: res.status, headers: Object.fromEntries(res.headers), body: text });
    } catch (err) {
      problem = (err as Error).message.replace(/^.*?: /, '');
    }
    return { instance: i.name, kind, at, ms, status: res.status, json, retryAfter: res.headers.get('retry-after'), ...(problem ? { problem } : {}) };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const error = e.name === 'TimeoutError' || e.name === 'AbortError' ? `no answer within ${ANSWER_MS / 1000} s` : `connection failed (${e.cause?.code ?? e.cause?.message ?? e.message})`;
    return { instance: i.name, kind, at, ms: performance.now() - at, error };
  }
}

/** What is wrong with an outcome under the contract, or undefined: the expected answer, or 503 JSON with Retry-After. */
function wrong(o: Outcome): string | undefined {
  if (o.error) return o.error;
  if (o.problem) return `not conforming: ${o.problem.slice(0, 160)}`;
  if (o.status === EXPECTED[o.kind]) return undefined;
  if (o.status === 503 && o.kind !== 'livez') {
    if (!o.json) return '503 without a JSON body';
    if (!o.retryAfter) return '503 without Retry-After';
    return undefined;
  }
  return `status ${o.status}`;
}

/** "a list: no answer within 5 s ×12; b member: status 500 ×1" */
function tally(outcomes: Outcome[], what: (o: Outcome) => string | undefined): string[] {
  const counts = new Map<string, number>();
  for (const o of outcomes) {
    const w = what(o);
    if (w !== undefined) counts.set(`${o.instance} ${o.kind}: ${w}`, (counts.get(`${o.instance} ${o.kind}: ${w}`) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k} ×${n}`);
}

/** One request every `everyMs`, round robin over the instances and the kinds. */
function startLoad(instances: Instance[], everyMs = 25) {
  const sent: Promise<Outcome>[] = [];
  let n = 0;
  const timer = setInterval(() => {
    const i = instances[n % instances.length]!;
    const kind = LOAD[Math.floor(n / instances.length) % LOAD.length]!;
    n++;
    sent.push(send(i, kind));
  }, everyMs);
  return {
    /** Stops sending; every outcome once each request has its answer or gave up (5 s at most). */
    stop: () => {
      clearInterval(timer);
      return Promise.all(sent);
    },
  };
}

/** /healthz and /livez of each instance every `everyMs`. */
function startProbes(instances: Instance[], everyMs = 250) {
  const sent: Promise<Outcome>[] = [];
  const timer = setInterval(() => {
    for (const i of instances) if (!exited(i)) sent.push(send(i, 'healthz'), send(i, 'livez'));
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return Promise.all(sent);
    },
  };
}

/** performance.now() when the instance first answers GET /v2/chambers 200 after `since`, polling every 250 ms for 30 s. */
async function recovered(i: Instance, since: number): Promise<number | undefined> {
  while (performance.now() - since < RECOVER_MS) {
    if (exited(i)) return undefined;
    const o = await send(i, 'probe');
    if (o.status === 200) return performance.now();
    await sleep(250);
  }
  return undefined;
}

// ---------------------------------------------------------------------------- pg_stat_activity

/** Counts each application's connections to one database in pg_stat_activity every 200 ms. */
class ConnectionSampler {
  readonly max = new Map<string, number>();
  /** Samples above the pool's bound, per application. */
  readonly over = new Map<string, number>();
  samples = 0;
  failures = 0;
  private client?: Promise<pg.Client>;
  private stopped = false;
  private loop?: Promise<void>;

  constructor(
    private readonly adminUrl: string,
    private readonly database: string,
  ) {}

  start(): void {
    this.loop = (async () => {
      while (!this.stopped) {
        try {
          const counts = await this.count();
          this.samples++;
          for (const [app, n] of counts) {
            this.max.set(app, Math.max(this.max.get(app) ?? 0, n));
            if (n > POOL) this.over.set(app, (this.over.get(app) ?? 0) + 1);
          }
        } catch {
          this.failures++; // the database stopped (the cluster test): nothing to count
        }
        await sleep(200);
      }
    })();
  }

  async count(): Promise<Map<string, number>> {
    this.client ??= (async () => {
      const c = new pg.Client({ connectionString: this.adminUrl, connectionTimeoutMillis: 2000, query_timeout: 2000 });
      c.on('error', () => undefined);
      await c.connect();
      return c;
    })();
    try {
      const c = await this.client;
      const r = await c.query<{ app: string; n: number }>(
        'SELECT application_name AS app, count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 GROUP BY 1',
        [this.database],
      );
      return new Map(r.rows.map((row) => [row.app, row.n]));
    } catch (err) {
      const c = this.client;
      this.client = undefined;
      void c.then((x) => x.end(), () => undefined).catch(() => undefined);
      throw err;
    }
  }

  /** The instance's connections left once it is gone, waiting up to `ms` for them to close. */
  async leftAfter(app: string, ms = 5000): Promise<number> {
    const until = performance.now() + ms;
    let n = -1;
    while (performance.now() < until) {
      n = (await this.count().catch(() => new Map<string, number>([[app, -1]]))).get(app) ?? 0;
      if (n === 0) return 0;
      await sleep(200);
    }
    return n;
  }

  maxOf(app: string): number {
    return this.max.get(app) ?? 0;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
    const c = this.client;
    this.client = undefined;
    await c?.then((x) => x.end()).catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------- a fault under load

interface FaultRun {
  label: string;
  requests: Outcome[];
  probes: Outcome[];
  faultAt: number;
  /** When the mending began (the database may answer before it ends: a server starting), and when it ended. */
  mendAt: number;
  passAt: number;
  recoveredAt: (number | undefined)[];
}

/** 1 s of load, the fault for `faultMs`, the database back, load until both instances answer again (30 s at most) and 2 s more. */
async function faultUnderLoad(label: string, pair: Instance[], faultMs: number, breakIt: () => Promise<unknown>, mendIt: () => Promise<unknown>): Promise<FaultRun> {
  const load = startLoad(pair);
  const probes = startProbes(pair);
  await sleep(1000);
  await breakIt();
  const faultAt = performance.now();
  await sleep(faultMs);
  const mendAt = performance.now();
  await mendIt();
  const passAt = performance.now();
  const recoveredAt = await Promise.all(pair.map((i) => recovered(i, passAt)));
  await sleep(2000);
  const [requests, probed] = await Promise.all([load.stop(), probes.stop()]);
  return { label, requests, probes: probed, faultAt, mendAt, passAt, recoveredAt };
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The contract's assertions on a run (soft, so one run reports every way it failed), and a one-line summary. */
function expectContract(run: FaultRun, pair: Instance[], sampler: ConnectionSampler): void {
  const { requests, probes, faultAt, mendAt, passAt } = run;
  const health = probes.filter((o) => o.kind === 'healthz');
  const live = probes.filter((o) => o.kind === 'livez');
  const unanswered = tally([...requests, ...probes], (o) => o.error);
  const badAnswers = tally([...requests, ...health], (o) => (o.error ? undefined : wrong(o)));
  const during = health.filter((o) => o.at >= faultAt && o.at + o.ms <= mendAt);
  const healthDuring = pair.map((i) => `${i.name}: ${during.filter((o) => o.instance === i.name).map((o) => o.status ?? o.error).join(',') || 'no probe answered during the fault'}`);
  const livez = tally(live, (o) => (o.status === 200 ? undefined : (o.error ?? `status ${o.status}`)));
  const afterRecovery = tally(
    requests.filter((o) => {
      const at = run.recoveredAt[pair.findIndex((i) => i.name === o.instance)];
      return at !== undefined && o.at > at + 1000;
    }),
    (o) => (o.status === EXPECTED[o.kind] ? undefined : (o.error ?? `status ${o.status}`)),
  );
  const conns = pair.map((i) => `${i.name} ${sampler.maxOf(i.app)}`);
  const summary = [
    `${run.label}: ${requests.length} requests, ${requests.filter((o) => o.status === 503).length} answered 503, slowest ${s(Math.max(...requests.map((o) => o.ms)))}`,
    `unanswered within 5 s: ${unanswered.length ? unanswered.join('; ') : 'none'}`,
    `wrong answers: ${badAnswers.length ? badAnswers.join('; ') : 'none'}`,
    `/healthz during the fault: ${healthDuring.join(' | ')}`,
    `/livez: ${livez.length ? livez.join('; ') : `all 200, slowest ${s(Math.max(...live.map((o) => o.ms)))}`}`,
    `recovered after: ${pair.map((i, k) => `${i.name} ${run.recoveredAt[k] === undefined ? 'not within 30 s' : s(run.recoveredAt[k]! - passAt)}`).join(', ')}`,
    `after recovery: ${afterRecovery.length ? afterRecovery.join('; ') : 'all as expected'}`,
    `max connections per instance: ${conns.join(', ')} (${sampler.samples} samples)`,
    `exited: ${pair.filter(exited).map((i) => `${i.name} (${i.serve.proc.exitCode ?? i.serve.proc.signalCode})`).join(', ') || 'none'}`,
  ].join('\n  ');
  console.log(summary);

  expect.soft(unanswered, `${run.label}: requests without an answer within 5 s`).toEqual([]);
  expect.soft(badAnswers, `${run.label}: answers neither the expected one nor 503 JSON with Retry-After`).toEqual([]);
  for (const i of pair) {
    const mine = during.filter((o) => o.instance === i.name);
    expect.soft(mine.length, `${run.label}: /healthz of ${i.name} answered during the fault`).toBeGreaterThan(0);
    expect.soft(mine.map((o) => o.status), `${run.label}: /healthz of ${i.name} during the fault`).toEqual(mine.map(() => 503));
  }
  expect.soft(livez, `${run.label}: /livez throughout`).toEqual([]);
  expect.soft(run.recoveredAt.map((t) => t !== undefined), `${run.label}: both instances answer 2xx within 30 s of the database's return`).toEqual(pair.map(() => true));
  expect.soft(afterRecovery, `${run.label}: requests from 1 s after an instance recovered`).toEqual([]);
  expect.soft(pair.filter(exited).map((i) => i.name), `${run.label}: instances that exited`).toEqual([]);
  for (const i of pair) {
    expect.soft(sampler.maxOf(i.app), `${run.label}: most connections of ${i.name} in pg_stat_activity`).toBeLessThanOrEqual(POOL);
    expect.soft(sampler.maxOf(i.app), `${run.label}: ${i.name} seen in pg_stat_activity at all`).toBeGreaterThan(0);
  }
}

// ---------------------------------------------------------------------------- raw HTTP

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Reads one HTTP/1.1 answer from a socket: status line, headers, a Content-Length body. */
function readAnswer(socket: Socket, ms = ANSWER_MS): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let data = '';
    const timer = setTimeout(() => done(new Error(`no answer within ${ms / 1000} s (got ${JSON.stringify(data.slice(0, 200))})`)), ms);
    const done = (err?: Error, answer?: RawAnswer) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      if (err) reject(err);
      else resolve(answer!);
    };
    const parse = (final: boolean) => {
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return final ? done(new Error(`the connection closed without an answer (got ${JSON.stringify(data.slice(0, 200))})`)) : undefined;
      const [statusLine, ...lines] = data.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).trim().toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const body = data.slice(end + 4);
      const length = Number(headers['content-length'] ?? NaN);
      if (Buffer.byteLength(body) >= length || final) done(undefined, { status: Number(statusLine!.split(' ')[1]), headers, body });
    };
    const onData = (d: Buffer) => {
      data += d.toString('utf8');
      parse(false);
    };
    const onClose = () => parse(true);
    socket.on('data', onData);
    socket.on('close', onClose);
  });
}

// ---------------------------------------------------------------------------- the suite

let db: TestDatabase;
let sampler: ConnectionSampler;

beforeAll(async () => {
  dataDir = await makeTempDir('chamberctl-outage-');
  db = await createTestDatabase('chamberctl_outage');
  sampler = new ConnectionSampler(PG_ADMIN_URL, db.name);
  sampler.start();
  // the demo data, once, by an instance of its own
  const seeder = await startInstance('seed', db.url, { seed: 'demo' });
  expect(seeder.chamberId).toMatch(/\S/);
  expect((await stopWithin(seeder, 'SIGTERM')).exitCode).toBe(0);
}, 60_000);

afterAll(async () => {
  for (const p of running) if (p.proc.exitCode === null && p.proc.signalCode === null) p.proc.kill('SIGKILL');
  await Promise.all(running.map((p) => p.proc.catch(() => undefined)));
  await Promise.all(proxies.map((p) => p.close()));
  await sampler?.stop();
  await db?.drop();
  if (dataDir) await removeTempDir(dataDir);
}, 60_000);

describe('the fault proxy itself (in front of an echo server)', () => {
  it('pass relays; blackhole holds both ways and delivers intact on pass; reset resets; refuse refuses, then listens again on its port', async () => {
    let reachedEcho = 0;
    let closedAtEcho = 0;
    const echo = createServer((sock) => {
      reachedEcho++;
      sock.on('close', () => closedAtEcho++);
      sock.on('error', () => undefined);
      sock.on('data', (d) => sock.write(d));
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const proxy = await startTcpFaultProxy({ host: '127.0.0.1', port: (echo.address() as AddressInfo).port });
    const open = async () => {
      const c = connect(proxy.port, '127.0.0.1');
      c.setEncoding('utf8');
      let got = '';
      c.on('data', (d: string) => (got += d));
      const failed = new Promise<string>((resolve) => c.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message)));
      await Promise.race([once(c, 'connect'), failed]);
      return { c, failed, got: () => got };
    };
    try {
      const a = await open();
      a.c.write('one');
      await sleep(100);
      expect(a.got()).toBe('one');
      const z = await open();
      await sleep(100);
      expect([proxy.open, reachedEcho]).toEqual([2, 2]);

      await proxy.setMode('blackhole');
      a.c.write('two');
      z.c.destroy(); // the close is held too: the other side hears of it on pass
      const b = await open(); // accepted, held
      b.c.write('three');
      const gone = await open();
      gone.c.write('lost');
      gone.c.destroy(); // its client gives up while held: the database never sees it
      await sleep(300);
      expect([a.got(), b.got(), closedAtEcho]).toEqual(['one', '', 0]);
      await proxy.setMode('pass');
      await sleep(200);
      expect([a.got(), b.got(), closedAtEcho]).toEqual(['onetwo', 'three', 1]);
      expect(reachedEcho).toBe(3);
      a.c.destroy();
      await sleep(100);
      expect(proxy.open).toBe(1);

      await proxy.setMode('reset');
      expect(await b.failed).toBe('ECONNRESET');
      const c = await open();
      expect(await c.failed).toBe('ECONNRESET');

      await proxy.setMode('refuse');
      const d = await open();
      expect(await d.failed).toBe('ECONNREFUSED');
      await proxy.setMode('pass');
      const e = await open();
      e.c.write('back');
      await sleep(100);
      expect(e.got()).toBe('back');
      e.c.destroy();
      expect([proxy.accepted, reachedEcho]).toEqual([6, 4]);
    } finally {
      await proxy.close();
      echo.close();
    }
  });
});

describe('two instances, pool 5, each through a TCP fault proxy, under a mixed load every 25 ms', () => {
  for (const mode of ['blackhole', 'reset', 'refuse'] as const satisfies FaultMode[]) {
    it(`${mode} for ${(mode === 'blackhole' ? SILENCE_MS : FAULT_MS) / 1000} s: every request answered within 5 s (2xx or 503 JSON), /healthz 503, /livez 200, recovery within 30 s, at most 5 connections each`, async () => {
      const pair: Instance[] = [];
      try {
        for (const name of ['a', 'b']) pair.push(await startInstance(`${mode}_${name}`, db.url, { proxy: await newProxy() }));
        const run = await faultUnderLoad(
          mode,
          pair,
          mode === 'blackhole' ? SILENCE_MS : FAULT_MS,
          () => Promise.all(pair.map((i) => i.proxy!.setMode(mode))),
          () => Promise.all(pair.map((i) => i.proxy!.setMode('pass'))),
        );
        expectContract(run, pair, sampler);
      } finally {
        await Promise.all(pair.map(kill));
      }
    }, 90_000);
  }
});

describe('shutdown', () => {
  it('SIGTERM with a POST half-sent: the POST is answered 201, a request completed after the signal gets 503 with Connection: close, exit 0 within 12 s, no connection left', async () => {
    const i = await startInstance('term_post', db.url, { proxy: await newProxy() });
    try {
      const body = JSON.stringify({ name: 'Half Sent', email: `half-${RUN}@example.org`, membership_type: 'standard' });
      const half = Math.floor(body.length / 2);
      const post = httpRequest({
        host: '127.0.0.1',
        port: i.port,
        method: 'POST',
        path: `/v2/chambers/${i.chamberId}/members`,
        agent: false,
        headers: { authorization: `Bearer ${i.token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      });
      const posted = new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
        post.on('response', (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (d: string) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
          res.on('error', reject);
        });
        post.on('error', reject);
      });
      post.write(body.slice(0, half));
      // a second connection with a request whose headers are not complete yet: busy, not idle
      const late = connect(i.port, '127.0.0.1');
      await once(late, 'connect');
      late.write(`GET /v2/chambers?per_page=1 HTTP/1.1\r\nHost: 127.0.0.1:${i.port}\r\nAuthorization: Bearer ${i.token}\r\n`);
      const lateAnswer = readAnswer(late, 15_000).catch((err: Error) => err);
      await sleep(300);

      const stopping = stopWithin(i, 'SIGTERM');
      await sleep(500);
      late.write('\r\n');
      post.end(body.slice(half));

      const [answer, after, stopped] = await Promise.all([
        Promise.race([posted, sleep(15_000).then(() => new Error('no answer within 15 s'))]).catch((err: Error) => err),
        lateAnswer,
        stopping,
      ]);
      late.destroy();
      const left = await sampler.leftAfter(i.app);
      console.log(
        `SIGTERM with a half-sent POST: POST ${answer instanceof Error ? answer.message : `${answer.status} ${answer.body.slice(0, 100)}`}; ` +
          `late request ${after instanceof Error ? after.message : `${after.status} connection=${after.headers.connection} ${after.body.slice(0, 100)}`}; ` +
          `exit ${stopped.exitCode} after ${s(stopped.ms)}; connections left ${left}; max ${sampler.maxOf(i.app)}`,
      );
      expect.soft(answer instanceof Error ? answer.message : answer.status, 'the half-sent POST').toBe(201);
      expect.soft(after instanceof Error ? after.message : after.status, 'a request completed after SIGTERM').toBe(503);
      if (!(after instanceof Error)) {
        expect.soft(after.headers.connection, 'its Connection header').toBe('close');
        expect.soft(after.headers['content-type'], 'its Content-Type').toMatch(/^application\/json/);
        let conforms: string | undefined;
        try {
          checkServeAnswer(i.baseUrl, { method: 'GET', url: '/v2/chambers?per_page=1', status: after.status, headers: after.headers, body: after.body });
        } catch (err) {
          conforms = (err as Error).message;
        }
        expect.soft(conforms, 'its headers and body against the OpenAPI document (503: Retry-After, an Error body)').toBeUndefined();
      }
      expect.soft(stopped.exitCode, 'exit code within 12 s of SIGTERM').toBe(0);
      expect.soft(left, 'connections of the instance left in pg_stat_activity').toBe(0);
      expect.soft(sampler.maxOf(i.app), 'most connections of the instance').toBeLessThanOrEqual(POOL);
    } finally {
      await kill(i);
    }
  }, 60_000);

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} with idle keep-alive sockets open: exit 0 within 12 s, no connection left`, async () => {
      const i = await startInstance(`${signal.toLowerCase()}_idle`, db.url, { proxy: await newProxy() });
      const agent = new Agent({ keepAlive: true });
      try {
        const get = () =>
          new Promise<number>((resolve, reject) => {
            httpRequest({ host: '127.0.0.1', port: i.port, path: '/v2/chambers?per_page=1', agent, headers: { authorization: `Bearer ${i.token}` } }, (res) => {
              res.resume().on('end', () => resolve(res.statusCode!));
            }).on('error', reject).end();
          });
        expect(await Promise.all([get(), get(), get(), get()])).toEqual([200, 200, 200, 200]);
        await sleep(100);
        const idle = Object.values(agent.freeSockets).flat();
        expect(idle.length, 'idle keep-alive sockets').toBe(4);
        const t0 = performance.now();
        const closedAfter: number[] = [];
        for (const sock of idle) sock!.once('close', () => closedAfter.push(performance.now() - t0));
        const stopped = await stopWithin(i, signal);
        const left = await sampler.leftAfter(i.app);
        console.log(`${signal} with 4 idle keep-alive sockets: exit ${stopped.exitCode} after ${s(stopped.ms)}; sockets closed after ${closedAfter.map(s).join(', ')}; connections left ${left}`);
        expect.soft(stopped.exitCode, `exit code within 12 s of ${signal}`).toBe(0);
        expect.soft(left, 'connections of the instance left in pg_stat_activity').toBe(0);
      } finally {
        agent.destroy();
        await kill(i);
      }
    }, 60_000);
  }

  for (const mode of ['blackhole', 'reset'] as const) {
    it(`SIGTERM right after a ${mode} under load (the database still ${mode === 'blackhole' ? 'silent' : 'resetting'}): requests in flight answered, exit 0 within 12 s, nothing left once it is back`, async () => {
      const i = await startInstance(`term_${mode}`, db.url, { proxy: await newProxy() });
      try {
        const load = startLoad([i]);
        await sleep(1000);
        await i.proxy!.setMode(mode);
        await sleep(mode === 'blackhole' ? 1000 : 300);
        const signalAt = performance.now();
        const stopping = stopWithin(i, 'SIGTERM');
        // sent before the signal (100 ms before it or earlier: surely read by the server by then)
        const requests = (await load.stop()).filter((o) => o.at < signalAt - 100);
        const stopped = await stopping;
        await i.proxy!.setMode('pass');
        const left = await sampler.leftAfter(i.app);
        const unanswered = tally(requests, (o) => o.error);
        const bad = tally(requests, (o) => (o.error ? undefined : wrong(o)));
        console.log(
          `SIGTERM after ${mode}: exit ${stopped.exitCode} after ${s(stopped.ms)}; ${requests.length} requests sent before it, ` +
            `unanswered: ${unanswered.join('; ') || 'none'}; wrong: ${bad.join('; ') || 'none'}; connections left ${left}; max ${sampler.maxOf(i.app)}`,
        );
        expect.soft(stopped.exitCode, 'exit code within 12 s of SIGTERM').toBe(0);
        expect.soft(unanswered, 'requests sent before SIGTERM without an answer within 5 s').toEqual([]);
        expect.soft(bad, 'answers neither the expected one nor 503 JSON with Retry-After').toEqual([]);
        expect.soft(left, 'connections of the instance left in pg_stat_activity once the database is back').toBe(0);
        expect.soft(sampler.maxOf(i.app), 'most connections of the instance').toBeLessThanOrEqual(POOL);
      } finally {
        await kill(i);
      }
    }, 60_000);
  }
});

describe('a PostgreSQL server stopped and started (a throwaway cluster on a port of its own)', () => {
  let cluster: ThrowawayCluster | undefined;
  let clusterSampler: ConnectionSampler | undefined;
  const pair: Instance[] = [];

  beforeAll(async () => {
    cluster = await createThrowawayCluster();
    console.log(`throwaway cluster ${cluster.version}/${cluster.name} on port ${cluster.port}: created in ${s(cluster.timings.createMs)}, started in ${s(cluster.timings.startMs)}`);
    const admin = new pg.Client({ connectionString: cluster.adminUrl, connectionTimeoutMillis: 5000 });
    await admin.connect();
    await admin.query('CREATE DATABASE chamberctl_drill');
    await admin.end();
    clusterSampler = new ConnectionSampler(cluster.adminUrl, 'chamberctl_drill');
    clusterSampler.start();
  }, 60_000);

  afterAll(async () => {
    await Promise.all(pair.map(kill));
    await clusterSampler?.stop();
    await cluster?.drop();
  }, 60_000);

  it("issue 25's scenario: two instances, pool 5, load, the server stopped (-m fast) for 4 s and started: every request answered within 5 s, both recover, SIGTERM exits 0 within 12 s, at most 5 connections each", async () => {
    const url = cluster!.adminUrl.replace(/\/postgres$/, '/chamberctl_drill');
    // two instances starting together on a new database: one migrates and seeds, both serve
    pair.push(...(await Promise.all(['drill_a', 'drill_b'].map((name) => startInstance(name, url, { seed: 'demo' })))));
    let stopMs = 0;
    let startMs = 0;
    const run = await faultUnderLoad(
      'server stopped',
      pair,
      FAULT_MS,
      async () => (stopMs = await cluster!.stop()),
      async () => (startMs = await cluster!.start()),
    );
    console.log(`pg_ctlcluster stop -m fast took ${s(stopMs)}, start ${s(startMs)}`);
    expectContract(run, pair, clusterSampler!);

    const stopped = await Promise.all(pair.map((i) => stopWithin(i, 'SIGTERM')));
    const left = await Promise.all(pair.map((i) => clusterSampler!.leftAfter(i.app)));
    console.log(`then SIGTERM: ${pair.map((i, k) => `${i.name} exit ${stopped[k]!.exitCode} after ${s(stopped[k]!.ms)}, ${left[k]} connections left`).join('; ')}`);
    expect.soft(stopped.map((r) => r.exitCode), 'exit codes within 12 s of SIGTERM').toEqual([0, 0]);
    expect.soft(left, 'connections left in pg_stat_activity').toEqual([0, 0]);
  }, 120_000);
});
