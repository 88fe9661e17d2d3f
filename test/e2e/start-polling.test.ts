// `serve` called the way other programs call it, never waiting for its output: a health
// check or a load balancer polls the port from before the process starts, a supervisor
// sends SIGTERM at any moment of the start, an operator restarts it with the same command
// line. Every poll must be answered within 2 s on a quiet machine, and within 2 s stretched by
// how loaded the machine was at that moment (loadAround) on a busy one (a refused connection,
// before the port is bound, counts as answered: nothing is held); while it starts, /livez is 200 and everything
// else a 503 `starting`; then it serves. On SQLite, and on PostgreSQL in the PostgreSQL pass.
import { createHash } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../helpers/cli.js';
import { freePort } from '../helpers/directory-walk.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { noteSecret } from '../helpers/run-logs.js';
import { spawnServe as spawnServeProcess } from '../helpers/serve-process.js';
import { TEST_BACKEND } from '../helpers/server.js';

const CLIENT = { id: 'poller', secret: 'PollerSecret0123456789abcdef' };
noteSecret(CLIENT.secret);
const POLL_EVERY_MS = 50;
const ANSWER_WITHIN_MS = 2000;
const DEMO_CHAMBERS = 200; // the standard demo data (storage/seed)

let dir: string;
const databases: TestDatabase[] = [];
beforeAll(async () => {
  dir = await makeTempDir('chamberctl-start-');
});
afterAll(async () => {
  await Promise.all(databases.map((d) => d.drop()));
  await removeTempDir(dir);
});

let made = 0;
/** A new database of the pass's backend: a SQLite file that does not exist yet, or an empty PostgreSQL database. */
async function newDatabase(): Promise<string> {
  if (TEST_BACKEND === 'sqlite') return join(dir, `start-${++made}.db`);
  const db = await createTestDatabase('chamberctl_start');
  databases.push(db);
  return db.url;
}

type Outcome = { path: string; at: number; status?: number; body?: string; error?: string; ms: number };

/**
 * How loaded the machine is, measured beside the polls: a fixed piece of CPU work (a few ms on
 * a quiet machine), timed every 100 ms while polling. Its fastest run in this file is the
 * baseline; loadAround says how many times slower it ran around a poll (at least 1), and the
 * 2 s limit is stretched by that much: with another suite on the same two cores, a start's
 * steps take longer for the same reason the probe does, and serve is not holding anything.
 */
const BLOCK = Buffer.alloc(64 * 1024, 7);
const probes: { at: number; ms: number }[] = [];
let fastestProbe = Infinity;
function probeCpu(at: number): void {
  const t = performance.now();
  const hash = createHash('sha256');
  for (let i = 0; i < 64; i++) hash.update(BLOCK);
  hash.digest();
  const ms = performance.now() - t;
  fastestProbe = Math.min(fastestProbe, ms);
  probes.push({ at, ms });
}
function loadAround(from: number, to: number): number {
  const near = probes.filter((p) => p.at >= from - 500 && p.at <= to + 500).map((p) => p.ms);
  return Math.max(1, ...near.map((ms) => ms / fastestProbe));
}

/** GETs each path every 50 ms on a new connection until stopped; each outcome recorded. */
function poll(port: number, paths: string[]): { outcomes: Outcome[]; t0: number; now(): number; stop(): Promise<void> } {
  const outcomes: Outcome[] = [];
  const pending = new Set<Promise<void>>();
  const t0 = Date.now();
  const once = (path: string) => {
    const started = Date.now();
    const p = new Promise<void>((resolve) => {
      const done = (o: Omit<Outcome, 'path' | 'at' | 'ms'>) => {
        outcomes.push({ path, at: started - t0, ms: Date.now() - started, ...o });
        resolve();
      };
      const req = request({ host: '127.0.0.1', port, path, agent: false, timeout: 30_000 }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d: string) => (body += d));
        res.on('end', () => done({ status: res.statusCode, body }));
        res.on('error', (e) => done({ error: (e as NodeJS.ErrnoException).code ?? e.message }));
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (e) => done({ error: (e as NodeJS.ErrnoException).code ?? e.message }));
      req.end();
    });
    pending.add(p);
    void p.then(() => pending.delete(p));
  };
  const timer = setInterval(() => paths.forEach(once), POLL_EVERY_MS);
  const probing = setInterval(() => probeCpu(Date.now()), 100);
  probeCpu(Date.now());
  paths.forEach(once);
  return {
    outcomes,
    t0,
    now: () => Date.now() - t0,
    async stop() {
      clearInterval(timer);
      clearInterval(probing);
      await Promise.all(pending);
    },
  };
}

/** The built `serve` with its own config directory, never waited for. */
function spawnServe(args: string[], env: Record<string, string> = {}): ReturnType<typeof spawnServeProcess> {
  return spawnServeProcess(['--quiet', '--drain', '0', ...args], { CHAMBERCTL_CONFIG_DIR: join(dir, `config-${++made}`), ...env });
}

/** Polls until `path` answers `status` (or the process ends); the time it took. */
async function waitFor(port: number, path: string, status: number, proc: ResultPromise, withinMs = 20_000): Promise<void> {
  const until = Date.now() + withinMs;
  while (Date.now() < until && proc.exitCode === null) {
    const got = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) }).then(
      (r) => r.status,
      () => 0,
    );
    if (got === status) return;
    await new Promise((r) => setTimeout(r, POLL_EVERY_MS));
  }
  throw new Error(`${path} did not answer ${status} in time (exit ${proc.exitCode})`);
}

/**
 * What every poll must satisfy: answered in time; 503 `starting` or the ready answer. A
 * connection is refused before the port is bound and after it is closed; one made at the
 * moment the process stops listening (from `stoppedAt` on) may also be reset, as with any
 * server that closes its port: the kernel had accepted it.
 */
function checkPolls(outcomes: Outcome[], t0: number, stoppedAt: number): void {
  expect(outcomes.length).toBeGreaterThan(10);
  for (const o of outcomes) {
    const load = loadAround(t0 + o.at, t0 + o.at + o.ms);
    const what = `${o.path} at ${o.at} ms: ${o.error ?? o.status} after ${o.ms} ms (SIGTERM at ${stoppedAt} ms; the machine ${load.toFixed(1)}x as loaded as at its quietest)`;
    if (o.error) {
      expect(o.error === 'ECONNREFUSED' || (o.error === 'ECONNRESET' && o.at + o.ms >= stoppedAt), what).toBe(true);
      continue;
    }
    expect(o.ms, what).toBeLessThan(ANSWER_WITHIN_MS * load);
    if (o.status === 503 && o.body?.includes('"starting"')) {
      expect(o.path, what).not.toBe('/livez');
      expect(JSON.parse(o.body)).toEqual({ error: 'starting', error_description: expect.any(String) });
      continue;
    }
    const ready = { '/livez': 200, '/healthz': 200, '/v2/chambers': 401 }[o.path];
    // a request that came as the server began stopping may get the stopping 503
    expect([ready, 503], what).toContain(o.status);
  }
}

async function token(port: number): Promise<string> {
  const r = await fetch(`http://127.0.0.1:${port}/v2/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: CLIENT.id, client_secret: CLIENT.secret }),
  });
  expect(r.status).toBe(200);
  const { access_token } = (await r.json()) as { access_token: string };
  noteSecret(access_token);
  return access_token;
}

async function chamberCount(port: number): Promise<number> {
  const r = await fetch(`http://127.0.0.1:${port}/v2/chambers?per_page=1`, { headers: { authorization: `Bearer ${await token(port)}` } });
  expect(r.status).toBe(200);
  return ((await r.json()) as { meta: { total: number } }).meta.total;
}

/**
 * One start of `serve` on `db` with pollers running from before the process exists; stops
 * it with SIGTERM once it serves (or `killAfterMs` after the first answer), and checks it all.
 */
async function pollStart(db: string, seed: 'demo' | 'none', killAfterMs?: number): Promise<{ exitCode?: number; signal?: string; served: boolean; stderr: string }> {
  const port = await freePort();
  const polls = poll(port, ['/livez', '/healthz', '/v2/chambers']);
  const serve = spawnServe(['--port', String(port), '--db', db, '--seed', seed, '--client-id', CLIENT.id], { CHAMBERCTL_CLIENT_SECRET: CLIENT.secret });
  let served = false;
  let check: Awaited<ReturnType<typeof serve.recording.watch>> | undefined;
  try {
    if (killAfterMs === undefined) {
      await waitFor(port, '/healthz', 200, serve.proc);
      served = true;
      check = await serve.recording.watch(serve.proc, `http://127.0.0.1:${port}`);
      expect(await chamberCount(port)).toBe(seed === 'demo' ? DEMO_CHAMBERS : 0);
      check.stopping();
    } else {
      await waitFor(port, '/livez', 200, serve.proc);
      await new Promise((r) => setTimeout(r, killAfterMs));
    }
    const stoppedAt = Date.now();
    const stoppedAtPoll = polls.now();
    serve.proc.kill('SIGTERM');
    const r = await serve.proc;
    expect(Date.now() - stoppedAt, 'stops within 12 s of SIGTERM').toBeLessThan(12_000);
    await polls.stop();
    checkPolls(polls.outcomes, polls.t0, stoppedAtPoll);
    await check?.report();
    return { exitCode: r.exitCode, signal: r.signal, served, stderr: serve.output().stderr };
  } finally {
    serve.proc.kill('SIGKILL');
    await polls.stop();
    if (!check) rmSync(serve.recording.env.CHAMBERCTL_TEST_EXCHANGES!, { force: true }); // not watched: never ready
  }
}

describe(`serve polled from before it starts (${TEST_BACKEND})`, () => {
  it('a new database with the demo data: starting, then serving; SIGTERM exits 0', async () => {
    const r = await pollStart(await newDatabase(), 'demo');
    expect(r).toMatchObject({ exitCode: 0, served: true });
  });

  it('a new empty database, then six restarts with the same command line', async () => {
    const db = await newDatabase();
    expect(await pollStart(db, 'none')).toMatchObject({ exitCode: 0, served: true });
    for (let i = 0; i < 6; i++) expect(await pollStart(db, 'none'), `restart ${i + 1}`).toMatchObject({ exitCode: 0, served: true });
  });

  it('SIGTERM at random moments of the start: exit 0 within 12 s, and the next start finds the demo data whole', async () => {
    let duringStart = 0;
    // spread over the start (50-500 ms after the port answers, here), each moment moved by up to 40 ms at random
    for (const at of [0, 10, 25, 50, 100, 250]) {
      const db = await newDatabase();
      const delay = at + Math.floor(Math.random() * 40);
      const killed = await pollStart(db, 'demo', delay);
      console.log(`killed ${delay} ms after /livez first answered: ${killed.stderr.includes('during start: stopping') ? 'during start' : 'once serving'}`);
      if (killed.stderr.includes('during start: stopping')) duringStart++;
      expect(killed.exitCode, `killed ${delay} ms into the start:\n${killed.stderr}`).toBe(0);
      expect(killed.stderr).not.toMatch(/"level":50|Error:/);
      // the next start: seeded whole by the killed start, or now; never half
      expect(await pollStart(db, 'demo'), `the start after a kill at ${delay} ms`).toMatchObject({ exitCode: 0, served: true });
    }
    // The moments did fall within starts on PostgreSQL, whose start (migrations and the demo
    // seed over the network) takes 100-400 ms after the port answers. SQLite's takes a few
    // tens of ms on this machine and sometimes none of the six lands in it (seen on Node 26),
    // so there the count is reported, not required.
    if (TEST_BACKEND === 'postgres') expect(duringStart).toBeGreaterThan(0);
    else console.log(`${duringStart} of 6 SIGTERMs fell within the start`);
  });

  it('a start that stops without being asked says why, and never exits 0', async () => {
    // the port is taken: the start cannot listen, creates nothing
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const db = TEST_BACKEND === 'sqlite' ? join(dir, 'never-created.db') : await newDatabase();
      const serve = spawnServe(['--port', String(port), '--db', db, '--client-id', CLIENT.id], { CHAMBERCTL_CLIENT_SECRET: CLIENT.secret });
      const r = await serve.proc;
      expect(r.exitCode).toBe(1);
      expect(serve.output().stderr.trim().split('\n')).toEqual([`error: port ${port} on 127.0.0.1 is already in use (try --port 0 for a free one)`]);
      if (TEST_BACKEND === 'sqlite') expect(existsSync(db)).toBe(false);
    } finally {
      blocker.close();
    }
  });
});
