import { mkdir, open, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { configDir } from '../../config/paths.js';
import type { CliContext } from '../../core/context.js';
import { usageError } from '../../core/exit-codes.js';

/**
 * The secret of --client-id, from wherever it was given: --client-secret-file (its first
 * line), CHAMBERCTL_CLIENT_SECRET, or --client-secret (visible to every user of the host in
 * `ps`). Usage errors (exit 2) for a secret without an id and an id without a secret.
 */
export async function clientSecretOf(
  opts: { clientId?: string; clientSecret?: string; clientSecretFile?: string },
  env: CliContext['env'],
): Promise<string | undefined> {
  if (opts.clientSecret !== undefined && opts.clientSecretFile !== undefined) throw usageError('--client-secret and --client-secret-file: give one of them');
  let secret = opts.clientSecret;
  if (opts.clientSecretFile !== undefined) {
    secret = await firstLineOf(opts.clientSecretFile);
    if (secret === '') throw usageError(`--client-secret-file ${opts.clientSecretFile} is empty; its first line is the secret`);
  }
  if (secret === undefined && opts.clientId !== undefined) secret = env.CHAMBERCTL_CLIENT_SECRET || undefined;
  if (secret !== undefined && opts.clientId === undefined) throw usageError('--client-secret and --client-secret-file need --client-id');
  if (opts.clientId !== undefined && secret === undefined) {
    throw usageError('--client-id needs its secret: CHAMBERCTL_CLIENT_SECRET, --client-secret-file FILE, or --client-secret');
  }
  return secret;
}

/** Longer than any secret: a first line of more is not one (a wrong file). */
const MAX_LINE = 4096;

/**
 * The first line of the secret file, read no further. The file must be readable by its
 * owner only, as libpq asks of ~/.pgpass: a secret that the group or others can read has
 * leaked already (on Windows, where modes mean nothing, the check is skipped).
 */
async function firstLineOf(file: string): Promise<string> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw usageError(`cannot read --client-secret-file ${file}: ${code === 'ENOENT' ? 'no such file' : code}`);
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw usageError(`cannot read --client-secret-file ${file}: it is a directory`);
    if (process.platform !== 'win32' && (info.mode & 0o077) !== 0) {
      const mode = (info.mode & 0o777).toString(8).padStart(4, '0');
      throw usageError(`--client-secret-file ${file} can be read or written by others (mode ${mode}): \`chmod 600 ${file}\`, as libpq asks of ~/.pgpass`);
    }
    const buf = Buffer.alloc(MAX_LINE + 1);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    const text = buf.toString('utf8', 0, bytesRead);
    const end = text.search(/\r?\n/);
    if (end === -1 && bytesRead > MAX_LINE) throw usageError(`--client-secret-file ${file}: its first line is over ${MAX_LINE} bytes, which is no secret (the wrong file?)`);
    return end === -1 ? text : text.slice(0, end);
  } finally {
    await handle.close();
  }
}

/**
 * Off a terminal, serve's stdout is a server's log (journald, a container's log), which must
 * never hold a secret: a new client's secret goes to a file only this user can read (0600,
 * in the config directory, beside the profiles), whose path the banner prints. Its first line
 * is the secret, as `serve --client-id ID --client-secret-file FILE` reads it on other instances.
 */
export async function writeNewClientSecret(client: { clientId: string; clientSecret: string }, env: CliContext['env']): Promise<string> {
  const { dir } = configDir(env);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${client.clientId}.secret`);
  await writeFile(file, `${client.clientSecret}\n`, { mode: 0o600, flag: 'wx' });
  return file;
}
