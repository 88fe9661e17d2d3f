import type { CliContext, GlobalOptions } from '../core/context.js';
import { CliError, type ExitCode } from '../core/exit-codes.js';
import type { Profile } from '../config/profile.js';
import { httpClientFor } from './create-http.js';
import { requestToken, tokenVersion } from './tokens.js';

export type ServerAnswer =
  | { accepted: true; scope?: string }
  /** The server refused the credentials (exit 3) or could not be asked (exit 1): what it said, or why. */
  | { accepted: false; said: string; exitCode: ExitCode };

/**
 * `auth status` without --offline, as `gh auth status` does: one token request with the
 * profile's credentials to the version it uses, and what the server answered (a revoked or
 * rotated client is refused, whatever the cache holds). The token is not kept.
 */
export async function askServerAboutCredentials(profile: Profile & { clientId: string; clientSecret: string }, globals: GlobalOptions, ctx: CliContext): Promise<ServerAnswer> {
  const http = httpClientFor(globals, ctx);
  try {
    const token = await requestToken(http, profile.baseUrl, tokenVersion(profile.apiVersion), profile, ctx.now, (said, baseUrl) => `${baseUrl} refused the saved credentials: ${said}; the client was revoked or its secret rotated: ask for a new secret, then run \`chamberctl login\``);
    return { accepted: true, ...(token.scope !== undefined && { scope: token.scope }) };
  } catch (err) {
    if (err instanceof CliError) return { accepted: false, said: err.message, exitCode: err.exitCode };
    throw err;
  } finally {
    await http.close();
  }
}
