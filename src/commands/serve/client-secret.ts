import { readFile } from 'node:fs/promises';
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
