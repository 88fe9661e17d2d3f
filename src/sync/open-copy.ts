import type { CliContext } from '../cli/context.js';
import { CliError, ExitCode, usageError } from '../cli/exit-codes.js';
import { defaultDbPath } from '../commands/serve.js';
import { openStorage, StartError } from '../server/start.js';
import { isPostgresUrl } from '../storage/postgres/pg-storage.js';
import { SyncCopy } from '../storage/sqlite/sync-copy.js';

/** The local copy named by --db (default: the database `serve` uses), opened for sync. */
export function openCopy(db: string | undefined, ctx: Pick<CliContext, 'env'>): SyncCopy {
  const path = db ?? defaultDbPath(ctx.env);
  if (path === ':memory:') throw usageError('--db :memory: would forget the copy at once; name a file');
  if (isPostgresUrl(path)) {
    throw usageError('sync keeps its copy in a SQLite file for now; name a file with --db (a PostgreSQL copy is not supported yet)');
  }
  try {
    // a small cache and memory map: a pull writes far more than it reads again, and mapped
    // pages of a large copy would count in the process's memory
    return new SyncCopy(openStorage(path, 32));
  } catch (err) {
    if (err instanceof StartError) throw new CliError(err.message, ExitCode.FAILURE);
    throw err;
  }
}
