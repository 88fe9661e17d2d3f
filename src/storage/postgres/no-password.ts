import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * When PostgreSQL asked for a password and none was given (not in the URL, not in
 * PGPASSWORD, no line of the password file), what psql would say, and where to put one;
 * a password file that libpq ignores for its mode is named as the reason. Undefined when a
 * password was given (then "authentication failed" is the answer).
 */
export function missingPasswordReason(url: string, err: unknown, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const e = err as { code?: string; message?: string };
  const asked = /password must be a string|password authentication failed|no password supplied/i.test(e.message ?? '') || e.code === '28P01';
  if (!asked) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.password || parsed.searchParams.has('password') || env.PGPASSWORD) return undefined; // ?password= as libpq takes it
  const file = env.PGPASSFILE || join(homedir(), '.pgpass');
  let ignored = '';
  let mode: number | undefined;
  try {
    mode = statSync(file).mode;
  } catch {
    mode = undefined;
  }
  if (mode !== undefined && (mode & 0o077) !== 0) {
    ignored = `; ${file} was ignored: its mode is ${(mode & 0o777).toString(8).padStart(4, '0')}, and libpq reads it only when no one else can (chmod 600 ${file})`;
  } else if (mode !== undefined) {
    // the file is read: a wrong password in it is "authentication failed"; no password at all means no line matched
    if (!/password must be a string/i.test(e.message ?? '')) return undefined;
    ignored = `; ${file} has no line for this database`;
  }
  const user = decodeURIComponent(parsed.username) || env.PGUSER || 'the current user';
  const host = parsed.hostname || 'localhost';
  const port = parsed.port || '5432';
  const db = decodeURIComponent(parsed.pathname.slice(1)) || '*';
  return (
    `no password was given for user "${user}": set PGPASSWORD, add the line ${host}:${port}:${db}:${user}:PASSWORD to ${file} (mode 0600), ` +
    `or put it in the URL${ignored}`
  );
}
