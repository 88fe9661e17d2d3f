import { existsSync } from 'node:fs';
import type { CliContext } from '../core/context.js';
import { CliError, ExitCode, usageError } from '../core/exit-codes.js';
import { resolveDb } from '../config/paths.js';
import { openStorage, openStore, StartError } from '../server/start.js';
import type { CopyStore } from '../storage/copy-store.js';
import { isPostgresUrl, type PgStorage } from '../storage/postgres/pg-storage.js';
import { PgSyncCopy } from '../storage/postgres/sync-copy.js';
import { SyncCopy } from '../storage/sqlite/sync-copy.js';
import { ThreadedCopy } from '../storage/sqlite/threaded-copy.js';

/** Whether the copy named by --db is there already (a PostgreSQL URL: taken to be). */
export function copyExists(db: string | undefined, env: CliContext['env']): boolean {
  const path = resolveDb(db, env);
  return isPostgresUrl(path) || (path !== ':memory:' && existsSync(path));
}

/**
 * The local copy named by --db (default: the database `serve` uses), opened for sync.
 * `threaded`: a SQLite copy writes on a worker thread when the context says how to start one
 * (sync pull: the HTTP side goes on while SQLite commits). `mustExist`: a command that only
 * reads or changes a copy refuses a SQLite file that is not there (exit 4) rather than
 * creating an empty one and reporting on it.
 */
export async function openCopy(
  db: string | undefined,
  ctx: Pick<CliContext, 'env' | 'copyWorker'>,
  opts: { threaded?: boolean; mustExist?: boolean } = {},
): Promise<CopyStore> {
  const path = resolveDb(db, ctx.env);
  if (path === ':memory:') throw usageError('--db :memory: would forget the copy at once; name a file or a postgres:// URL');
  if (opts.mustExist && !isPostgresUrl(path) && !existsSync(path)) throw new CliError(`no database at ${path}`, ExitCode.NOT_FOUND);
  if (isPostgresUrl(path)) {
    try {
      return new PgSyncCopy((await openStore(path, { poolSize: 4, bulk: true })) as PgStorage);
    } catch (err) {
      if (err instanceof StartError) throw new CliError(err.message, ExitCode.FAILURE);
      throw err;
    }
  }
  try {
    // a small cache and memory map: a pull writes far more than it reads again, and mapped
    // pages of a large copy would count in the process's memory
    if (opts.threaded && ctx.copyWorker) return await ThreadedCopy.open(path, 32, ctx.copyWorker);
    return new SyncCopy(openStorage(path, 32));
  } catch (err) {
    if (err instanceof StartError) throw new CliError(err.message, ExitCode.FAILURE);
    throw err;
  }
}
