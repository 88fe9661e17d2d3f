import { hostname } from 'node:os';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { pino, type Logger } from 'pino';
import { localOperator } from '../core/operator.js';
import { openDatabase, type Database } from '../storage/open.js';
import type { Storage } from '../storage/sqlite/storage.js';
import { StartError } from '../storage/start-error.js';
import type { DirectoryStore } from '../storage/store.js';
import { buildApp } from './app.js';
import { loggerOptions, type LogSettings } from './logging.js';
import type { ServerDeps } from './deps.js';
import { bindAddress, warnOfDroppedConnections, type ConnectionLimits } from './bound-address.js';
import { generateFirstClient, registerNamedClient } from './register-client.js';

export interface StartOptions {
  host: string;
  port: number;
  /** A file path, ':memory:', or a PostgreSQL URL (postgres://…). */
  dbPath: string;
  /** Connections to PostgreSQL (default 10); SQLite has one. */
  poolSize?: number;
  /** PostgreSQL through a pooler in transaction mode (pool.ts, PgPoolOptions.pooler). */
  pgPooler?: 'transaction';
  /** What metadata documents name as the server's URL (else the listening address). */
  publicUrl?: string;
  /** SQLite's page cache and memory map, each at most this many MiB (default 64 and 1024). */
  cacheMiB?: number;
  /** Demo data, nothing, or the snapshot file to load (docs/snapshot-format.md); only into an unused database. */
  seed: 'demo' | 'none' | { snapshot: string };
  seedSize?: 'standard' | 'large';
  clientId?: string;
  clientSecret?: string;
  /** Who the audit trail names for a client serve registers (default: the user@host it runs as). */
  operator?: string;
  now?: () => Date;
  /** GET /metrics in the Prometheus text format. */
  metrics?: boolean;
  /** Logs (pino through Fastify): JSON lines or readable text; none when absent. */
  logging?: LogSettings;
  trustProxy?: Parameters<typeof buildApp>[0]['trustProxy']; // serve --trust-proxy (trust-proxy.ts)
  /** serve --header-timeout and --max-connections (bound-address.ts has the defaults). */
  connections?: ConnectionLimits;
  /** The logger made by serverLogger(logging), when the caller logs before the server starts. */
  logger?: Logger;
  /**
   * Aborted by a signal during start: the start winds down at its next step (the database
   * opened, seeded, the client registered, the app ready) and rejects with StartStopped.
   */
  signal?: AbortSignal;
  /**
   * Where the first client's credentials are kept (serve's profile): saved there before the
   * database has the client, so a start stopped at any moment never leaves a client whose
   * secret nobody has (register-client.ts).
   */
  firstClientKeeper?: FirstClientKeeper;
}

export interface FirstClientKeeper {
  /** Credentials kept by an earlier start of this database that stopped before adding them. */
  pending(location: string): Promise<{ clientId: string; clientSecret: string } | undefined>;
  /** Keeps them before the database has them; false when they could not be kept (then only the banner shows them). */
  keep(client: { clientId: string; clientSecret: string }, baseUrl: string, location: string): Promise<boolean>;
}

/** The start was stopped by its signal (SIGTERM or SIGINT during start); nothing listens any more. */
export class StartStopped extends Error {
  constructor() {
    super('stopped during start');
  }
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
  /** --client-id was given the secret it had before its last rotation, valid until then. */
  oldSecretUntil?: string;
  seeded?: { chambers: number; members: number; events: number };
  /**
   * Drains before a stop (serve --drain): readiness answers 503 and every other request is
   * still served, for `ms` or until close() is called, whichever comes first.
   */
  drain(ms: number): Promise<void>;
  /** When GET /healthz was last answered while serving (performance.now()), if ever. */
  readinessProbedAt(): number | undefined;
  close(): Promise<void>;
}


/**
 * How long requests in flight may take to finish once the server is told to stop
 * (docs/server-behaviour.md#shutdown).
 */
const IN_FLIGHT_GRACE_MS = 10_000;
/**
 * The store's own close is bounded (storage/postgres); this is the backstop, short enough
 * that grace + close stay within the 12 s in which serve exits after SIGTERM.
 */
const STORE_CLOSE_BOUND_MS = 1_500;

/** serve's logger: pino with logging.ts's options (redaction, serializers, JSON or text). */
export async function serverLogger(settings: LogSettings): Promise<Logger> {
  const { stream, ...options } = (await loggerOptions(settings)) as { stream: { write(line: string): unknown } };
  return pino(options, stream as NodeJS.WritableStream);
}

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

/** All or nothing; a bad line throws the SnapshotError that names it, an unreadable file a StartError. */
async function seedFromSnapshot(db: Database, file: string): Promise<RunningServer['seeded']> {
  const { importSnapshotFile } = await import('../snapshot/files.js');
  try {
    return await importSnapshotFile(db.snapshot(), file, { replace: false, onlyIfUnused: true });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (typeof e.code === 'string' && e.syscall) throw new StartError(`cannot read the snapshot ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.code}`);
    throw err;
  }
}

/**
 * Binds the address (answering `starting` from then on), opens (and on first use seeds) the
 * database, registers clients, then hands the address to the app. Every step up to the last
 * is undone when a later one fails or the signal stops the start: the address is released
 * and the store closed (what a step committed stays, each step being one transaction).
 */
export async function startServer(opts: StartOptions): Promise<RunningServer> {
  const now = opts.now ?? (() => new Date());
  const bound = await bindAddress(opts.host, opts.port, opts.connections);
  const stopped = () => {
    if (opts.signal?.aborted) throw new StartStopped();
  };
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  const baseUrl = `http://${host}:${bound.port}`;
  let db: Database;
  try {
    stopped();
    db = await openDatabase(opts.dbPath, {}, { poolSize: opts.poolSize, pgPooler: opts.pgPooler, cacheMiB: opts.cacheMiB });
  } catch (err) {
    await bound.close();
    throw err;
  }
  const store = db.store;
  let app: FastifyInstance | undefined;
  let releaseLease: (() => Promise<void>) | undefined;
  try {
    // `snapshot import --replace` refuses while this is held (storage/serve-lease.ts)
    releaseLease = await db.serveLeases().hold({ pid: process.pid, host: hostname(), url: baseUrl });
    stopped();
    let seeded: RunningServer['seeded'];
    if (opts.seed === 'demo' && (await store.isUnused())) {
      seeded = await store.seedDemo({ size: opts.seedSize ?? 'standard', now: now() });
    } else if (typeof opts.seed === 'object' && (await store.isUnused())) {
      seeded = await seedFromSnapshot(db, opts.seed.snapshot);
    }
    stopped();
    let generatedClient: RunningServer['generatedClient'];
    let oldSecretUntil: string | undefined;
    if (opts.clientId && opts.clientSecret) {
      const registered = await registerNamedClient(store, opts.clientId, opts.clientSecret, now(), opts.operator ?? localOperator());
      if (registered.kind === 'old-secret') oldSecretUntil = registered.until;
    } else {
      const keeper = opts.firstClientKeeper;
      generatedClient = await generateFirstClient(
        store,
        now(),
        opts.operator ?? localOperator(),
        keeper && { pending: () => keeper.pending(store.location), keep: (client) => keeper.keep(client, baseUrl, store.location) },
      );
    }
    stopped();

    db.sqlite?.checkpointEvery(1000);
    const stats = { tokenRequests: 0 };
    let closing = false;
    let draining = false;
    let endDrain = () => undefined as void;
    let probedAt: number | undefined;
    let appHandler: Parameters<NonNullable<FastifyServerOptions['serverFactory']>>[0] | undefined;
    app = buildApp({
      store,
      now,
      stats,
      publicUrl: opts.publicUrl,
      isClosing: () => closing,
      isDraining: () => draining,
      onReadinessProbe: () => void (probedAt = performance.now()),
      metrics: opts.metrics,
      trustProxy: opts.trustProxy,
      ...(opts.logging && { loggerInstance: opts.logger ?? (await serverLogger(opts.logging)), logRequests: opts.logging.requests }),
      // the address bound above is the app's server; its timeouts are what Fastify would set
      serverFactory: (handler, fastifyOpts) => {
        appHandler = handler;
        const timeouts = fastifyOpts as { keepAliveTimeout: number; requestTimeout: number; connectionTimeout: number };
        bound.server.keepAliveTimeout = timeouts.keepAliveTimeout;
        bound.server.requestTimeout = timeouts.requestTimeout;
        bound.server.setTimeout(timeouts.connectionTimeout);
        return bound.server;
      },
    });
    warnOfDroppedConnections(bound.server, app.log);
    // Requests still in flight when we stop get `Connection: close`, so their keep-alive
    // sockets end with the response instead of holding the process open.
    // (with `done` rather than async: no promise and no microtask per answer)
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (closing) reply.header('connection', 'close');
      done(null, payload);
    });
    await app.ready();
    stopped();
    bound.serve(appHandler!);
    const server = bound.server;
    const running = app;
    let stopping: Promise<void> | undefined;
    /**
     * docs/server-behaviour.md#shutdown: new requests get 503 and `Connection: close` (the
     * onRequest hook), idle keep-alive sockets close at once, requests in flight get up to
     * IN_FLIGHT_GRACE_MS, then their sockets are cut; the store closes within its own bound even
     * when the database is gone. The server is ours (bound-address.ts), so we close it; then the
     * app's onClose hooks.
     */
    const stop = async () => {
      endDrain();
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (!(await settlesWithin(closed, IN_FLIGHT_GRACE_MS))) {
        running.log.warn('requests still in flight after %d s: closing their connections', IN_FLIGHT_GRACE_MS / 1000);
        server.closeAllConnections();
        await closed;
      }
      await running.close();
      await settlesWithin(releaseLease!(), STORE_CLOSE_BOUND_MS);
      if (!(await settlesWithin(store.close(), STORE_CLOSE_BOUND_MS))) {
        running.log.warn('the database connections did not close within %d s; left to the process exit', STORE_CLOSE_BOUND_MS / 1000);
      }
    };
    return {
      app,
      store,
      ...(db.sqlite && { storage: db.sqlite.storage }),
      stats,
      baseUrl,
      port: bound.port,
      generatedClient,
      ...(oldSecretUntil && { oldSecretUntil }),
      seeded,
      drain: (ms) =>
        new Promise<void>((resolve) => {
          draining = true;
          const timer = setTimeout(resolve, ms);
          endDrain = () => (clearTimeout(timer), resolve());
        }),
      readinessProbedAt: () => probedAt,
      close: () => (stopping ??= stop()),
    };
  } catch (err) {
    await bound.close();
    await app?.close();
    await releaseLease?.();
    await store.close();
    throw err;
  }
}
