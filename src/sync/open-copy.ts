import type { CliContext } from '../core/context.js';
import { resolveDb } from '../config/paths.js';
import type { CopyStore } from '../storage/copy-store.js';
import { checkDatabase, databaseExists, openDatabase, type DatabaseRules } from '../storage/open.js';
import { isPostgresUrl } from '../storage/postgres/pg-storage.js';
import { ThreadedCopy } from '../storage/sqlite/threaded-copy.js';

/** Whether the copy named by --db is there already (a PostgreSQL URL: taken to be). */
export function copyExists(db: string | undefined, env: CliContext['env']): boolean {
  return databaseExists(resolveDb(db, env));
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
  const rules: DatabaseRules = { memoryRefused: 'would forget the copy at once; name a file or a postgres:// URL', mustExist: opts.mustExist };
  if (isPostgresUrl(path)) return (await openDatabase(path, rules, { poolSize: 4, bulk: true })).copy();
  checkDatabase(path, rules);
  // a small cache and memory map: a pull writes far more than it reads again, and mapped
  // pages of a large copy would count in the process's memory
  if (opts.threaded && ctx.copyWorker) return ThreadedCopy.open(path, 32, ctx.copyWorker);
  return (await openDatabase(path, rules, { cacheMiB: 32 })).copy();
}
