import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { configDir, resolveDb } from '../config/paths.js';
import { ProfileStore } from '../config/profile-store.js';
import { selectProfile } from '../config/select.js';
import { CliError, ExitCode } from '../core/exit-codes.js';
import { checkDatabase, withDatabase, type DatabaseRules } from '../storage/open.js';
import { isPostgresUrl } from '../storage/postgres/pg-storage.js';
import type { DirectoryStore } from '../storage/store.js';

/** `clients` and `audit` administer the database `serve` uses: one that is there already. */
const TEAM_DATABASE: DatabaseRules = {
  memoryRefused: 'holds no clients; name the database `serve` uses: a SQLite file or a postgres:// URL',
  mustExist: true,
};

/**
 * The database named by `--db`, else CHAMBERCTL_DB, else the database of the selected
 * profile's `serve` (as kubectl uses the current context: the profile `serve` saved knows
 * which database it serves), else the default one; checked before it is opened: `:memory:` is
 * a usage error (there is nothing to administer in it), and a SQLite file that is not there is
 * exit 4 (nothing is created). For `check`, so that a command refuses a bad `--db` together
 * with its other options, before touching anything.
 */
export function teamDbPath(db: string | undefined, env: Record<string, string | undefined>, profile?: string): string {
  const served = db === undefined && !env.CHAMBERCTL_DB ? servedBy(env, profile) : undefined;
  const path = served?.database ?? resolveDb(db, env);
  try {
    checkDatabase(path, TEAM_DATABASE);
  } catch (err) {
    if (served && err instanceof CliError && err.exitCode === ExitCode.NOT_FOUND) {
      throw new CliError(`no database at ${path}, the database of profile "${served.profile}" (saved by its \`serve\`); --db names another`, ExitCode.NOT_FOUND);
    }
    throw err;
  }
  return path;
}

/** The URL of the `serve` of `path` that saved the selected profile, for the login line `clients add` suggests; else undefined. */
export function serveUrlOf(path: string, env: Record<string, string | undefined>, profile?: string): string | undefined {
  const served = servedBy(env, profile);
  return served?.database === path ? served.baseUrl : undefined;
}

/** The database the selected profile's `serve` serves, when it saved one that lasts; read without creating anything. */
function servedBy(env: Record<string, string | undefined>, flag: string | undefined): { profile: string; database: string; baseUrl: string } | undefined {
  const { dir } = configDir(env);
  if (!existsSync(join(dir, 'config.json'))) return undefined;
  try {
    const store = new ProfileStore(dir);
    const { name } = selectProfile({ profile: flag }, env, store);
    const profile = store.get(name);
    const database = profile?.serveDb;
    return profile && database && database !== ':memory:' ? { profile: name, database, baseUrl: profile.baseUrl } : undefined;
  } catch {
    return undefined; // an unreadable config file: the default database, as before
  }
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
