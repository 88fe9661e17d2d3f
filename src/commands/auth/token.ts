import type { CliContext, GlobalOptions } from '../../core/context.js';
import { getAccessToken } from '../../client/session.js';

/**
 * `chamberctl auth token`: prints the bare access token (for curl); the cached one while it
 * has more than a minute left, else a new one, which is cached. The only command that ever
 * prints a token.
 */
export async function runAuthToken(opts: GlobalOptions, ctx: CliContext): Promise<void> {
  const t = await getAccessToken(opts, ctx);
  ctx.stdout.write(
    opts.json
      ? `${JSON.stringify({ access_token: t.accessToken, token_type: 'Bearer', expires_at: t.expiresAt, api_version: t.version, profile: t.profileName })}\n`
      : `${t.accessToken}\n`,
  );
}
