// The bounds of the PostgreSQL pool (src/storage/postgres/pool.ts) against the real server
// and against a relay of this file that can go silent (it keeps the connections open and
// drops every byte, as a network that loses packets does) or reset them: a statement past
// its bound, a pool with every connection busy, a silent server at connect time and under a
// statement, an idle connection reset, and close() when nothing answers. Each failure must
// come within its bound, as an error unavailableReason() names, leave no socket behind,
// and the pool must work again once the database does.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgStorage } from '../../src/storage/postgres/pg-storage.js';
import { ACQUIRE_TIMEOUT_MS, CLOSE_TIMEOUT_MS, PgPool, QUERY_TIMEOUT_MS, STATEMENT_TIMEOUT_MS } from '../../src/storage/postgres/pool.js';
import { unavailableReason } from '../../src/storage/unavailable.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

/** How late a timer may fire on a busy machine. */
const SLACK_MS = 1500;

let db: TestDatabase;
const relays: Relay[] = [];
beforeAll(async () => {
  db = await createTestDatabase('chamberctl_bounds');
});
afterAll(async () => {
  for (const r of relays) await r.close();
  await db?.drop();
});

interface Relay {
  /** The test database's URL through the relay. */
  url: string;
  /** Forwards nothing either way (the connections stay open), or everything again. */
  silence(silent: boolean): Promise<void>;
  /** Resets every connection through it. */
  reset(): Promise<void>;
  /** Connections whose client has neither ended nor closed its side. */
  open(): Promise<number>;
  close(): Promise<void>;
}

/**
 * The relay, in a process of its own, so that the sockets this process holds are the
 * pool's alone. It never half-closes on its own (allowHalfOpen): a client that only ends its
 * side of a connection to a silent relay keeps its socket open, as it would with a server
 * that is gone, and that socket shows in this process's handles.
 */
const RELAY = `
const net = require('node:net');
const [host, port] = process.argv.slice(-2);
let silent = process.argv.includes('silent');
const pairs = new Set();
let open = 0;
const server = net.createServer({ allowHalfOpen: true }, (client) => {
  open++;
  let counted = true;
  const done = () => void (counted && ((counted = false), open--));
  const upstream = net.connect(Number(port), host);
  const pair = [client, upstream];
  pairs.add(pair);
  for (const s of pair) s.on('error', () => undefined);
  client.on('end', done);
  client.on('close', () => (done(), pairs.delete(pair), upstream.destroy()));
  upstream.on('close', () => void (silent || client.destroy()));
  client.on('data', (d) => void (silent || upstream.write(d)));
  upstream.on('data', (d) => void (silent || client.write(d)));
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', ({ id, op }) => {
  if (op === 'silent') silent = true;
  if (op === 'loud') silent = false;
  if (op === 'reset') for (const p of pairs) for (const s of p) s.resetAndDestroy();
  process.send({ id, open });
});
process.on('disconnect', () => process.exit(0));
`;

async function startRelay(opts: { silent?: boolean } = {}): Promise<Relay> {
  const target = new URL(db.url);
  const child = spawn(process.execPath, ['-e', RELAY, '--', ...(opts.silent ? ['silent'] : []), target.hostname, target.port || '5432'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { port } = await new Promise<{ port: number }>((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`the relay exited with ${code}`)));
  });
  let ids = 0;
  const ask = (op: string) =>
    new Promise<number>((resolve) => {
      const id = ++ids;
      const on = (m: { id: number; open: number }) => void (m.id === id && (child.off('message', on), resolve(m.open)));
      child.on('message', on);
      child.send({ id, op });
    });
  const url = new URL(db.url);
  url.port = String(port);
  const relay: Relay = {
    url: url.toString(),
    silence: async (silent) => void (await ask(silent ? 'silent' : 'loud')),
    reset: async () => void (await ask('reset')),
    open: () => ask('count'),
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
  relays.push(relay);
  return relay;
}

/** Until `check` holds or a second has passed (a socket closes a moment after its destroy()). */
async function settled(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 50 && !(await check()); i++) await new Promise((r) => setTimeout(r, 20));
}

/** The TCP sockets this process holds open. */
const openSockets = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;

/** How long `p` took to settle, and its error (it must fail). */
async function failure(p: Promise<unknown>): Promise<{ ms: number; err: unknown }> {
  const started = performance.now();
  const err = await p.then(
    () => new Error('it did not fail'),
    (e: unknown) => e,
  );
  return { ms: performance.now() - started, err };
}

const backendPid = (pool: PgPool) => pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid').then((r) => r[0]!.pid);

describe('the PostgreSQL pool’s bounds', () => {
  it('a statement past statement_timeout is cancelled by the server; the connection stays and works', async () => {
    const pool = new PgPool(db.url, { max: 1 });
    try {
      const pid = await backendPid(pool);
      const { ms, err } = await failure(pool.query('SELECT pg_sleep(30)'));
      expect((err as { code?: string }).code).toBe('57014');
      expect(unavailableReason(err)).toBe('a statement ran past statement_timeout');
      expect(ms).toBeGreaterThanOrEqual(STATEMENT_TIMEOUT_MS - 50);
      expect(ms).toBeLessThan(STATEMENT_TIMEOUT_MS + SLACK_MS);
      expect(await backendPid(pool)).toBe(pid); // the same connection, still usable
      expect(pool.stats()).toEqual({ open: 1, idle: 1, waiting: 0 });
    } finally {
      await pool.close();
    }
  });

  it('a statement with no answer within query_timeout fails, its connection is dropped and its socket closed', async () => {
    const pool = new PgPool(db.url, { max: 2 });
    try {
      const pid = await backendPid(pool);
      const sockets = openSockets();
      // the server's own bound lifted, so that only the client's can end it
      const { ms, err } = await failure(
        pool.withConnection(async (c) => {
          await c.execute('BEGIN');
          await c.execute('SET LOCAL statement_timeout = 0');
          await c.query('SELECT pg_sleep(30)');
        }),
      );
      expect((err as Error).message).toBe('Query read timeout');
      expect(unavailableReason(err)).toBe('no answer in time');
      expect(ms).toBeGreaterThanOrEqual(QUERY_TIMEOUT_MS - 50);
      expect(ms).toBeLessThan(QUERY_TIMEOUT_MS + SLACK_MS);
      expect(pool.stats().open).toBe(0);
      await settled(() => openSockets() === sockets - 1);
      expect(openSockets()).toBe(sockets - 1);
      // the pool goes on, on a new connection
      const other = await backendPid(pool);
      expect(other).not.toBe(pid);
      // and the server ends the abandoned backend once it finds the socket closed
      await pool.query('SELECT pg_cancel_backend($1)', [pid]);
      for (let i = 0; i < 100 && (await pool.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).length; i++) await new Promise((r) => setTimeout(r, 20));
      expect(await pool.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).toEqual([]);
    } finally {
      await pool.close();
    }
  });

  it('with every connection busy, the next request fails within connectionTimeoutMillis; then the pool serves again', async () => {
    const pool = new PgPool(db.url, { max: 2 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    try {
      const holders = [1, 2].map(() => pool.withConnection(async (c) => (await c.query('SELECT 1'), await held)));
      while (pool.stats().idle + pool.stats().open < 2 || pool.stats().idle > 0) await new Promise((r) => setTimeout(r, 5));
      const { ms, err } = await failure(pool.query('SELECT 1'));
      expect((err as Error).message).toBe('timeout exceeded when trying to connect');
      expect(unavailableReason(err)).toBe('no free connection in time');
      expect(ms).toBeGreaterThanOrEqual(ACQUIRE_TIMEOUT_MS - 50);
      expect(ms).toBeLessThan(ACQUIRE_TIMEOUT_MS + SLACK_MS);
      expect(pool.stats()).toEqual({ open: 2, idle: 0, waiting: 0 });
      release();
      await Promise.all(holders);
      expect(await pool.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      release();
      await pool.close();
    }
  });

  it('a server that accepts and never answers: opening the storage fails within the connect bound, and no socket stays open', async () => {
    const relay = await startRelay({ silent: true });
    const sockets = openSockets();
    const { ms, err } = await failure(PgStorage.open(relay.url, { poolSize: 2 }));
    expect(unavailableReason(err), String(err)).toBe('no connection in time');
    expect(ms).toBeLessThan(ACQUIRE_TIMEOUT_MS + SLACK_MS);
    await settled(() => openSockets() === sockets);
    expect(openSockets()).toBe(sockets);
    expect(await relay.open()).toBe(0);
  });

  it('the database going silent under connections: statements fail within the bound, no socket lingers, and it recovers', async () => {
    const relay = await startRelay();
    const pool = new PgPool(relay.url, { max: 3 });
    try {
      const sockets = openSockets();
      await Promise.all([1, 2, 3].map(() => pool.withConnection((c) => c.query('SELECT 1'))));
      expect(pool.stats()).toEqual({ open: 3, idle: 3, waiting: 0 });
      expect(openSockets()).toBe(sockets + 3);
      await relay.silence(true);
      const started = performance.now();
      // three connections, ten requests: each fails within ACQUIRE + QUERY of its start
      const results = await Promise.all(Array.from({ length: 10 }, () => failure(pool.query('SELECT 1'))));
      for (const { ms, err } of results) {
        expect(unavailableReason(err), String(err)).toMatch(/^(no answer in time|no free connection in time|no connection in time)$/);
        expect(ms).toBeLessThan(ACQUIRE_TIMEOUT_MS + QUERY_TIMEOUT_MS + SLACK_MS);
      }
      expect(performance.now() - started).toBeLessThan(ACQUIRE_TIMEOUT_MS + QUERY_TIMEOUT_MS + SLACK_MS);
      // the three connections that never answered are gone, sockets and all
      expect(pool.stats().open).toBe(0);
      await settled(async () => openSockets() === sockets && (await relay.open()) === 0);
      expect(openSockets()).toBe(sockets);
      expect(await relay.open()).toBe(0);
      await relay.silence(false);
      expect(await pool.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await pool.close();
    }
  });

  it('an idle connection reset under the pool is dropped without an unhandled error; the next request connects afresh', async () => {
    const relay = await startRelay();
    const pool = new PgPool(relay.url, { max: 2 });
    try {
      await Promise.all([1, 2].map(() => pool.withConnection((c) => c.query('SELECT 1'))));
      expect(pool.stats()).toEqual({ open: 2, idle: 2, waiting: 0 });
      await relay.reset();
      await settled(() => pool.stats().open === 0);
      expect(pool.stats().open).toBe(0);
      expect(await pool.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await pool.close();
    }
  });

  it('a connection reset under a statement fails it with a reason, and the pool goes on', async () => {
    const relay = await startRelay();
    const pool = new PgPool(relay.url, { max: 1 });
    try {
      await pool.query('SELECT 1');
      const sleeping = failure(pool.query('SELECT pg_sleep(1)'));
      await new Promise((r) => setTimeout(r, 200));
      await relay.reset();
      const { ms, err } = await sleeping;
      expect(unavailableReason(err), String(err)).toMatch(/^(the connection was reset|the connection was closed)$/);
      expect(ms).toBeLessThan(1000);
      expect(await pool.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await pool.close();
    }
  });

  it('a refused connection fails at once with a reason', async () => {
    const relay = await startRelay();
    await relay.close();
    const pool = new PgPool(relay.url, { max: 1 });
    try {
      const { ms, err } = await failure(pool.query('SELECT 1'));
      expect(unavailableReason(err)).toBe('connection refused');
      expect(ms).toBeLessThan(1000);
    } finally {
      await pool.close();
    }
  });

  it('close() returns within its bound when the server is silent, with statements in flight, and leaves no socket open', async () => {
    const relay = await startRelay();
    const pool = new PgPool(relay.url, { max: 3 });
    const sockets = openSockets();
    await Promise.all([1, 2, 3].map(() => pool.withConnection((c) => c.query('SELECT 1'))));
    await relay.silence(true);
    // one statement in flight, two connections idle
    const inFlight = failure(pool.query('SELECT 1'));
    await new Promise((r) => setTimeout(r, 100));
    const started = performance.now();
    await pool.close();
    expect(performance.now() - started).toBeLessThan(CLOSE_TIMEOUT_MS + SLACK_MS);
    await settled(async () => openSockets() === sockets && (await relay.open()) === 0);
    expect(openSockets()).toBe(sockets);
    expect(await relay.open()).toBe(0);
    expect(unavailableReason((await inFlight).err)).toBeDefined();
  });

  it('close() of a storage whose server accepts and never answers returns within its bound', async () => {
    const silent = await startRelay({ silent: true });
    const pool = new PgPool(silent.url, { max: 2, bulk: true });
    const sockets = openSockets();
    // two connections being opened (a bulk pool waits as long as its statements may)
    const pending = [1, 2].map(() => failure(pool.query('SELECT 1')));
    await new Promise((r) => setTimeout(r, 100));
    const started = performance.now();
    await pool.close();
    expect(performance.now() - started).toBeLessThan(CLOSE_TIMEOUT_MS + SLACK_MS);
    for (const { err } of await Promise.all(pending)) expect(unavailableReason(err), String(err)).toBeDefined();
    await settled(() => openSockets() === sockets);
    expect(openSockets()).toBe(sockets);
  });
});
