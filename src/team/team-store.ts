import { resolveDb } from '../config/paths.js';
import { checkDatabase, withDatabase, type DatabaseRules } from '../storage/open.js';
import { isPostgresUrl } from '../storage/postgres/pg-storage.js';
import type { DirectoryStore } from '../storage/store.js';

/** `clients` and `audit` administer the database `serve` uses: one that is there already. */
const TEAM_DATABASE: DatabaseRules = {
  memoryRefused: 'holds no clients; name the database `serve` uses: a SQLite file or a postgres:// URL',
  mustExist: true,
};

/**
 * The database named by `--db` (default: the one `serve` uses), checked before it is opened:
 * `:memory:` is a usage error (there is nothing to administer in it), and a SQLite file that is
 * not there is exit 4 (nothing is created). For `check`, so that a command refuses a bad
 * `--db` together with its other options, before touching anything.
 */
export function teamDbPath(db: string | undefined, env: Record<string, string | undefined>): string {
  const path = resolveDb(db, env);
  checkDatabase(path, TEAM_DATABASE);
  return path;
}

/**
 * `work` on the database at `path` (from teamDbPath), closed afterwards whatever happens. A
 * database that cannot be opened is one line, exit 1. PostgreSQL: a small pool, without the
 * bounds of a request on its statements, as the other commands that work on the database do.
 */
export async function withTeamStore<T>(path: string, work: (store: DirectoryStore) => Promise<T>): Promise<T> {
  const opts = isPostgresUrl(path) ? { poolSize: 2, bulk: true } : { cacheMiB: 8 };
  return withDatabase(path, TEAM_DATABASE, opts, (db) => work(db.store));
}
