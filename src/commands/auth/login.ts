import type { CliContext, GlobalOptions } from '../../core/context.js';
import { login } from '../../client/login.js';
import { DEFAULT_BASE_URL, normaliseBaseUrl } from '../../config/base-url.js';
import { openProfileStore } from '../../config/profile-store.js';
import { selectProfile } from '../../config/select.js';
import { gatherCredentials, type CredentialFlags } from './credentials.js';

export type LoginOptions = GlobalOptions & CredentialFlags;

/** `chamberctl login`: gathers the values, verifies them with the server, saves the profile. */
export async function runLogin(opts: LoginOptions, ctx: CliContext): Promise<void> {
  const store = openProfileStore(ctx.env);
  const { name } = selectProfile(opts, ctx.env, store);
  const previous = store.get(name);
  const baseUrl = normaliseBaseUrl(opts.baseUrl ?? previous?.baseUrl ?? DEFAULT_BASE_URL);
  const apiVersion = opts.apiVersion ?? previous?.apiVersion ?? 'auto';
  const credentials = await gatherCredentials(opts, ctx, previous?.clientId);

  const result = await login({ profile: name, baseUrl, apiVersion, credentials, verbose: opts.verbose }, ctx);

  if (opts.json) {
    ctx.stdout.write(
      `${JSON.stringify({
        profile: result.profile,
        base_url: result.baseUrl,
        client_id: result.clientId,
        api_version: result.apiVersion,
        current: result.madeCurrent || store.current() === result.profile,
        ...(result.scope !== undefined && { scope: result.scope }),
      })}\n`,
    );
    return;
  }
  const scope = result.scope !== undefined ? ` (scope ${result.scope})` : '';
  ctx.stderr.write(`logged in to ${result.baseUrl} as client "${result.clientId}"${scope}; saved as profile "${result.profile}"\n`);
  if (result.madeCurrent) ctx.stderr.write(`profile "${result.profile}" is now the current profile\n`);
}
