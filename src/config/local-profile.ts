import type { CliContext } from '../cli/context.js';
import { normaliseBaseUrl } from './base-url.js';
import { openProfileStore } from './profile-store.js';
import { shouldBecomeCurrent } from './select.js';

export const LOCAL_PROFILE = 'local';

/**
 * Called by `chamberctl serve` once it listens: points the `local` profile at the server
 * (and stores its client credentials when given), so that the next command just works.
 * Cached tokens are dropped when the URL or the credentials change. `local` becomes the
 * current profile only when nothing else would be used: no current profile is saved and
 * there is no `default` profile (a user who is logged in elsewhere is not switched over).
 */
export async function saveLocalProfile(
  ctx: CliContext,
  p: { baseUrl: string; clientId?: string; clientSecret?: string },
): Promise<{ profile: string; madeCurrent: boolean }> {
  const store = openProfileStore(ctx.env);
  const baseUrl = normaliseBaseUrl(p.baseUrl, 'the server URL');
  const madeCurrent = shouldBecomeCurrent(store, LOCAL_PROFILE);
  store.update(LOCAL_PROFILE, (old) => {
    const clientId = p.clientId ?? old?.clientId;
    const clientSecret = p.clientSecret ?? old?.clientSecret;
    const changed = !old || old.baseUrl !== baseUrl || old.clientId !== clientId || old.clientSecret !== clientSecret;
    return {
      baseUrl,
      apiVersion: old?.apiVersion ?? 'auto',
      ...(clientId !== undefined ? { clientId } : {}),
      ...(clientSecret !== undefined ? { clientSecret } : {}),
      tokens: changed ? {} : (old?.tokens ?? {}),
    };
  });
  if (madeCurrent) store.setCurrent(LOCAL_PROFILE);
  return { profile: LOCAL_PROFILE, madeCurrent };
}
