import { existsSync } from 'node:fs';
import { CliError, ExitCode, usageError } from '../core/exit-codes.js';
import type { CopyStore } from './copy-store.js';
import { isPostgresUrl, PgStorage, redactUrl } from './postgres/pg-storage.js';
import { missingPasswordReason } from './postgres/no-password.js';
import { PgSnapshotIo } from './postgres/snapshot-io.js';
import { PgSyncCopy } from './postgres/sync-copy.js';
import type { SnapshotBackend } from './snapshot-backend.js';
import { openStorage } from './sqlite/open-storage.js';
import { SqliteSnapshotIo } from './sqlite/snapshot-io.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import { SyncCopy } from './sqlite/sync-copy.js';
import { pgLeases, sqliteLeases, type ServeLeases } from './serve-lease.js';
import { StartError } from './start-error.js';
import type { DirectoryStore } from './store.js';
import { reportingUnavailable, unavailableReason } from './unavailable.js';

// Every command that works on the database `--db` names (serve, sync, snapshot, clients,
// audit) checks and opens it here; the value itself comes from config/paths.ts's resolveDb
// (the option, CHAMBERCTL_DB, the default path: config's facts, on the floor beside this
// one). The backend is chosen here and nowhere else: callers get one handle whose sides
// (the store, the snapshot side, the offline copy) are typed, without downcasts.

/** What a command allows of the database it names. */
export interface DatabaseRules {
  /** `:memory:` refused with this reason (exit 2), or allowed when absent. */
  memoryRefused?: string;
  /** A SQLite file that is not there: created (the default), or exit 4 with nothing created. */
  mustExist?: boolean;
}

export interface OpenOptions {
  /** PostgreSQL: connections in the pool. */
  poolSize?: number;
  /** PostgreSQL through a pooler in transaction mode (postgres/pool.ts). */
  pgPooler?: 'transaction';
  /** SQLite: page cache and memory map, in MiB. */
  cacheMiB?: number;
  /** PostgreSQL: a command's long work, without the bounds of a request on each statement. */
  bulk?: boolean;
}

/** One open database, whichever backend: close it once, through any side. */
export interface Database {
  readonly backend: DirectoryStore['backend'];
  /** For messages: a file path, `:memory:`, or the URL without its password. */
  readonly location: string;
  /** What the server, `clients` and `audit` use; a lost database reads as "unavailable". */
  readonly store: DirectoryStore;
  /** Snapshot export and import, on the same connection. */
  snapshot(): SnapshotBackend;
  /** The offline copy of `sync`, on the same connection. */
  copy(): CopyStore;
  /** The `serve` processes that have it open (serve-lease.ts). */
  serveLeases(): ServeLeases;
  /** SQLite only: the store as itself, for a long-running server's timed checkpoints. */
  readonly sqlite?: SqliteStore;
  close(): Promise<void>;
}

/**
 * Refuses what `rules` forbid, before anything is created: exit 2 for `:memory:`, exit 4
 * for a SQLite file that is not there. A PostgreSQL URL is taken to exist (opening says).
 */
export function checkDatabase(path: string, rules: DatabaseRules): void {
  if (path === ':memory:' && rules.memoryRefused) throw usageError(`--db :memory: ${rules.memoryRefused}`);
  if (rules.mustExist && !isPostgresUrl(path) && path !== ':memory:' && !existsSync(path)) {
    throw new CliError(`no database at ${path}`, ExitCode.NOT_FOUND);
  }
}

/** Whether the SQLite file `path` names is there (a PostgreSQL URL: taken to be). */
export function databaseExists(path: string): boolean {
  return isPostgresUrl(path) || (path !== ':memory:' && existsSync(path));
}

/**
 * Checks `path` against `rules`, then opens it: a PostgreSQL URL, else a SQLite file
 * (created 0600 when new) or `:memory:`. One that cannot be opened is a StartError (exit 1,
 * one line, a URL's password masked).
 */
export async function openDatabase(path: string, rules: DatabaseRules = {}, opts: OpenOptions = {}): Promise<Database> {
  checkDatabase(path, rules);
  if (isPostgresUrl(path)) {
    let pg: PgStorage;
    try {
      pg = await PgStorage.open(path, { poolSize: opts.poolSize, bulk: opts.bulk, pooler: opts.pgPooler });
    } catch (err) {
      throw new StartError(`cannot open the database ${redactUrl(path)}: ${missingPasswordReason(path, err) ?? pgReason(err)}`);
    }
    const store = reportingUnavailable(pg);
    return {
      backend: 'postgres',
      location: pg.location,
      store,
      snapshot: () => new PgSnapshotIo(pg.pool, pg.location),
      copy: () => new PgSyncCopy(store),
      serveLeases: () => pgLeases(pg.pool),
      close: () => store.close(),
    };
  }
  const storage = openStorage(path, opts.cacheMiB);
  const sqlite = new SqliteStore(storage, path);
  const store = reportingUnavailable(sqlite);
  return {
    backend: 'sqlite',
    location: path,
    store,
    snapshot: () => new SqliteSnapshotIo(storage, path),
    copy: () => new SyncCopy(storage),
    serveLeases: () => sqliteLeases(path),
    sqlite,
    close: () => store.close(),
  };
}

/** `work` on the database, closed afterwards whatever happens. */
export async function withDatabase<T>(path: string, rules: DatabaseRules, opts: OpenOptions, work: (db: Database) => Promise<T>): Promise<T> {
  const db = await openDatabase(path, rules, opts);
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

function pgReason(err: unknown): string {
  const e = err as { code?: string; message?: string };
  if (e.code === 'ECONNREFUSED') return 'connection refused (is PostgreSQL running?)';
  // a refusal in words, from PostgreSQL or a pooler in front of it (PgBouncer: "no such
  // database: dir", "pgbouncer cannot connect to server"): its own message says what
  if (e.code?.startsWith('08') && e.message) return `the server refused the connection: ${e.message}`;
  if (e.code === '3D000') return 'no such database';
  if (e.code === '28P01' || e.code === '28000') return 'authentication failed';
  return unavailableReason(err) ?? e.message ?? String(err);
}
