import { mkdir, readFile, writeFile } from 'node:fs/promises';
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
    let text: string;
    try {
      text = await readFile(opts.clientSecretFile, 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw usageError(`cannot read --client-secret-file ${opts.clientSecretFile}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code}`);
    }
    secret = text.split(/\r?\n/)[0]!;
    if (secret === '') throw usageError(`--client-secret-file ${opts.clientSecretFile} is empty; its first line is the secret`);
  }
  if (secret === undefined && opts.clientId !== undefined) secret = env.CHAMBERCTL_CLIENT_SECRET || undefined;
  if (secret !== undefined && opts.clientId === undefined) throw usageError('--client-secret and --client-secret-file need --client-id');
  if (opts.clientId !== undefined && secret === undefined) {
    throw usageError('--client-id needs its secret: CHAMBERCTL_CLIENT_SECRET, --client-secret-file FILE, or --client-secret');
  }
  return secret;
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
