import { createServer as createNetServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { randomAlphanumeric } from '../storage/ids.js';
import { isPostgresUrl, PgStorage, redactUrl } from '../storage/postgres/pg-storage.js';
import { SqliteStore } from '../storage/sqlite/sqlite-store.js';
import { openStorage } from '../storage/sqlite/open-storage.js';
import type { Storage } from '../storage/sqlite/storage.js';
import { StartError } from '../storage/start-error.js';
import type { DirectoryStore } from '../storage/store.js';
import { reportingUnavailable, unavailableReason } from '../storage/unavailable.js';
import { buildApp } from './app.js';
import { loggerOptions, type LogSettings } from './logging.js';
import { hashSecret } from './auth/secrets.js';
import type { ServerDeps } from './deps.js';

export interface StartOptions {
  host: string;
  port: number;
  /** A file path, ':memory:', or a PostgreSQL URL (postgres://…). */
  dbPath: string;
  /** Connections to PostgreSQL (default 10); SQLite has one. */
  poolSize?: number;
  /** What metadata documents name as the server's URL (else the listening address). */
  publicUrl?: string;
  /** SQLite's page cache and memory map, each at most this many MiB (default 64 and 1024). */
  cacheMiB?: number;
  /** Demo data, nothing, or the snapshot file to load (docs/snapshot-format.md); only into an unused database. */
  seed: 'demo' | 'none' | { snapshot: string };
  seedSize?: 'standard' | 'large';
  clientId?: string;
  clientSecret?: string;
  now?: () => Date;
  /** GET /metrics in the Prometheus text format. */
  metrics?: boolean;
  /** Logs (pino through Fastify): JSON lines or readable text; none when absent. */
  logging?: LogSettings;
  trustProxy?: Parameters<typeof buildApp>[0]['trustProxy']; // serve --trust-proxy (trust-proxy.ts)
}

export interface RunningServer {
  app: FastifyInstance;
  store: DirectoryStore;
  /** The SQLite database itself, when that is the backend (tests write fixtures through it). */
  storage?: Storage;
  stats: ServerDeps['stats'];
  /** e.g. http://127.0.0.1:8080 */
  baseUrl: string;
  port: number;
  /** Set when a new database got a generated client: shown once, never stored in clear. */
  generatedClient?: { clientId: string; clientSecret: string };
  seeded?: { chambers: number; members: number; events: number };
  close(): Promise<void>;
}

export { StartError, openStorage };

/** How long requests in flight may take to finish once the server is told to stop (decisions.md). */
const IN_FLIGHT_GRACE_MS = 10_000;
/**
 * The store's own close is bounded (storage/postgres); this is the backstop, short enough
 * that grace + close stay within the 12 s in which serve exits after SIGTERM.
 */
const STORE_CLOSE_BOUND_MS = 1_500;

/** Whether `p` settles within `ms` (its rejection counts as settled). */
async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([p.then(() => true, () => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The database named by --db: a PostgreSQL URL, or a SQLite file (created 0600) or ':memory:'.
 * `bulk`: for a command's long work (`sync`, `snapshot`) rather than a server's requests, on
 * PostgreSQL without the bounds of a request on each statement.
 */
export async function openStore(dbPath: string, opts: { poolSize?: number; cacheMiB?: number; bulk?: boolean } = {}): Promise<DirectoryStore> {
  if (isPostgresUrl(dbPath)) {
    try {
      return reportingUnavailable(await PgStorage.open(dbPath, { poolSize: opts.poolSize, bulk: opts.bulk }));
    } catch (err) {
      throw new StartError(`cannot open the database ${redactUrl(dbPath)}: ${pgReason(err)}`);
    }
  }
  return reportingUnavailable(new SqliteStore(openStorage(dbPath, opts.cacheMiB), dbPath));
}

/** All or nothing; a bad line throws the SnapshotError that names it, an unreadable file a StartError. */
async function seedFromSnapshot(store: DirectoryStore, file: string): Promise<RunningServer['seeded']> {
  const { importSnapshotFile } = await import('../snapshot/files.js');
  try {
    return await importSnapshotFile(store, file, { replace: false, onlyIfUnused: true });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (typeof e.code === 'string' && e.syscall) throw new StartError(`cannot read the snapshot ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.code}`);
    throw err;
  }
}

function pgReason(err: unknown): string {
  const e = err as { code?: string; message?: string };
  if (e.code === 'ECONNREFUSED') return 'connection refused (is PostgreSQL running?)';
  if (e.code === '3D000') return 'no such database';
  if (e.code === '28P01' || e.code === '28000') return 'authentication failed';
  return unavailableReason(err) ?? e.message ?? String(err);
}

/** A listen error as the one line `serve` prints. */
function listenError(err: unknown, host: string, port: number): Error {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new StartError(`port ${port} on ${host} is already in use (try --port 0 for a free one)`);
  if (code === 'EACCES') return new StartError(`not allowed to listen on ${host}:${port}`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new StartError(`cannot listen on ${host}: no such local address`);
  return err as Error;
}

/**
 * Takes the address before anything else happens: a start that cannot listen must not have
 * created, seeded or registered anything (a generated secret would never be shown). The
 * port is held until the server itself listens on it, the moment it is released.
 */
async function reserveAddress(host: string, port: number): Promise<{ port: number; release: () => Promise<void> }> {
  const probe = createNetServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (err) => reject(listenError(err, host, port)));
    probe.listen({ host, port, exclusive: true }, resolve);
  });
  const address = probe.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    release: () => new Promise<void>((resolve) => probe.close(() => resolve())),
  };
}

/** Takes the address, opens (and on first use seeds) the database, registers clients, and listens. */
export async function startServer(opts: StartOptions): Promise<RunningServer> {
  const now = opts.now ?? (() => new Date());
  const reserved = await reserveAddress(opts.host, opts.port);
  let store: DirectoryStore;
  try {
    store = await openStore(opts.dbPath, { poolSize: opts.poolSize, cacheMiB: opts.cacheMiB });
  } catch (err) {
    await reserved.release();
    throw err;
  }
  try {
    let seeded: RunningServer['seeded'];
    if (opts.seed === 'demo' && (await store.isUnused())) {
      seeded = await store.seedDemo({ size: opts.seedSize ?? 'standard', now: now() });
    } else if (typeof opts.seed === 'object' && (await store.isUnused())) {
      seeded = await seedFromSnapshot(store, opts.seed.snapshot);
    }
    let generatedClient: RunningServer['generatedClient'];
    if (opts.clientId && opts.clientSecret) {
      if ((await store.putClient(opts.clientId, await hashSecret(opts.clientSecret), now())) === 'revoked') {
        throw new StartError(`the client "${opts.clientId}" was revoked (chamberctl clients revoke); serve does not bring it back: choose another --client-id`);
      }
    } else if ((await store.clientCount()) === 0) {
      generatedClient = { clientId: `cl${randomAlphanumeric(14)}`, clientSecret: randomAlphanumeric(40) };
      await store.putClient(generatedClient.clientId, await hashSecret(generatedClient.clientSecret), now());
    }

    if (store instanceof SqliteStore) store.checkpointEvery(1000);
    const stats = { tokenRequests: 0 };
    let closing = false;
    const app = buildApp({
      store,
      now,
      stats,
      publicUrl: opts.publicUrl,
      isClosing: () => closing,
      metrics: opts.metrics,
      trustProxy: opts.trustProxy,
      ...(opts.logging && { logger: await loggerOptions(opts.logging), logRequests: opts.logging.requests }),
    });
    // Requests still in flight when we stop get `Connection: close`, so their keep-alive
    // sockets end with the response instead of holding the process open.
    app.addHook('onSend', async (_request, reply, payload) => {
      if (closing) reply.header('connection', 'close');
      return payload;
    });
    try {
      await reserved.release();
      await app.listen({ host: opts.host, port: reserved.port });
    } catch (err) {
      await app.close();
      throw listenError(err, opts.host, opts.port);
    }
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : opts.port;
    let stopping: Promise<void> | undefined;
    /**
     * decisions.md: new requests get 503 and `Connection: close` (the onRequest hook), idle
     * keep-alive sockets close at once (Fastify's forceCloseConnections: 'idle'), requests in
     * flight get up to IN_FLIGHT_GRACE_MS, then their sockets are cut; the store closes
     * within its own bound even when the database is gone.
     */
    const stop = async () => {
      closing = true;
      const closed = app.close();
      if (!(await settlesWithin(closed, IN_FLIGHT_GRACE_MS))) {
        app.log.warn('requests still in flight after %d s: closing their connections', IN_FLIGHT_GRACE_MS / 1000);
        app.server.closeAllConnections();
        await closed;
      }
      if (!(await settlesWithin(store.close(), STORE_CLOSE_BOUND_MS))) {
        app.log.warn('the database connections did not close within %d s; left to the process exit', STORE_CLOSE_BOUND_MS / 1000);
      }
    };
    const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
    return {
      app,
      store,
      ...(store instanceof SqliteStore ? { storage: store.storage } : {}),
      stats,
      baseUrl: `http://${host}:${port}`,
      port,
      generatedClient,
      seeded,
      close: () => (stopping ??= stop()),
    };
  } catch (err) {
    await reserved.release();
    await store.close();
    throw err;
  }
}
