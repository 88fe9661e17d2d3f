import { join } from 'node:path';
import envPaths from 'env-paths';
import { usageError } from '../core/exit-codes.js';

/** Where profiles live: CHAMBERCTL_CONFIG_DIR, else the platform's user config directory. */
export function configDir(env: Record<string, string | undefined>): { dir: string; fromEnv: boolean } {
  const fromEnv = env.CHAMBERCTL_CONFIG_DIR;
  if (fromEnv) return { dir: fromEnv, fromEnv: true };
  return { dir: envPaths('chamberctl', { suffix: '' }).config, fromEnv: false };
}

/** The default database of `serve`, `sync` and `snapshot`: CHAMBERCTL_DATA_DIR, else the platform's user data directory. */
export function defaultDbPath(env: Record<string, string | undefined>): string {
  const dir = env.CHAMBERCTL_DATA_DIR || envPaths('chamberctl', { suffix: '' }).data;
  return join(dir, 'chamberctl.db');
}

/**
 * The database a command's `--db` names: the option, else CHAMBERCTL_DB (so that a URL with
 * a password need not be in argv), else the default. A file path, `:memory:` or a
 * postgres:// (postgresql://) URL; any other `scheme://` is a usage error, before anything is
 * created: a mistyped postgres URL would otherwise be a new SQLite file of that name.
 */
export function resolveDb(option: string | undefined, env: Record<string, string | undefined>): string {
  const fromEnv = option === undefined && env.CHAMBERCTL_DB ? env.CHAMBERCTL_DB : undefined;
  const value = option ?? fromEnv ?? defaultDbPath(env);
  // `postgres:/chamber@host/dir` (one slash), `postgres:chamber@host/dir`: a mistyped URL, not a
  // SQLite file named so (two letters at least: `C:/x.db` is a Windows path)
  const typo = /^([a-z][a-z0-9+.-]+):(?!\/\/)/i.exec(value);
  if (typo && (value.startsWith(`${typo[1]}:/`) || /^postgres(ql)?$/i.test(typo[1]!))) {
    const shown = value.replace(/^([^:]+:\/*[^:@/]*):[^@/]*@/, '$1:***@');
    throw usageError(
      `${fromEnv ? 'CHAMBERCTL_DB' : '--db'} "${shown}" looks like a mistyped URL (${typo[1]}: needs two slashes: ${typo[1]}://user@host:port/database); nothing was created`,
    );
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value);
  if (scheme && !/^postgres(ql)?$/i.test(scheme[1]!)) {
    // a password as user:pw@ or as a query parameter (libpq's password, sslpassword)
    const shown = value.replace(/^([^:]+:\/\/[^:@/]*):[^@/]*@/, '$1:***@').replace(/([?&](?:ssl)?password=)[^&#]*/gi, '$1***');
    throw usageError(
      `${fromEnv ? 'CHAMBERCTL_DB' : '--db'} "${shown}" is a ${scheme[1]}:// URL; a database is a SQLite file, :memory:, or a postgres:// or postgresql:// URL`,
    );
  }
  return value;
}
