import type { Logger } from 'pino';
import type { CliContext } from '../../core/context.js';
import type { ServeProfileResult } from '../../config/local-profile.js';
import type { FirstClientKeeper, RunningServer } from '../../server/start.js';

/** A URL clients on this machine can use, even when listening on every interface. */
export function clientBaseUrl(baseUrl: string, host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '[::]') return baseUrl.replace(/\/\/[^/]+:/, '//127.0.0.1:');
  return baseUrl;
}

/**
 * Points the server's profile (`local` unless --profile) at it, with the credentials serve
 * knows, and says what it did in the log; never fails the server (a warning instead).
 */
export async function pointProfileHere(
  ctx: CliContext,
  server: RunningServer,
  log: Pick<Logger, 'info' | 'warn'>,
  opts: { name?: string; host: string; overwrite?: boolean; clientId?: string; clientSecret?: string },
): Promise<void> {
  try {
    const { saveServeProfile, LOCAL_PROFILE } = await import('../../config/local-profile.js');
    const { verifySecret } = await import('../../server/auth/secrets.js');
    const saved = await saveServeProfile(ctx, {
      name: opts.name ?? LOCAL_PROFILE,
      baseUrl: clientBaseUrl(server.baseUrl, opts.host),
      database: server.store.location,
      ...(opts.clientId !== undefined && { clientId: opts.clientId, clientSecret: opts.clientSecret }),
      overwrite: opts.overwrite,
      credentialsWork: async (id, secret) => {
        const auth = await server.store.clientAuth(id);
        return auth !== undefined && !auth.revokedAt && (await verifySecret(secret, auth.secretHash));
      },
      answers: (url) => fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) }).then(() => true, () => false),
    });
    logProfileSaved(saved, log);
  } catch (e) {
    log.warn('could not update the profile: %s', (e as Error).message);
  }
}

/** What serve says about its profile, once it listens. */
export function logProfileSaved(saved: ServeProfileResult, log: Pick<Logger, 'info' | 'warn'>): void {
  if (saved.saved) {
    const moved = saved.tookOverFrom ? ` (it pointed at ${saved.tookOverFrom}, which no longer answers)` : '';
    const use = saved.madeCurrent ? ' and is now the current profile' : saved.alreadyCurrent ? ' (the current profile)' : ` (use it with --profile ${saved.profile})`;
    log.info(`profile "${saved.profile}" points here${moved}${use}`);
  }
  if (saved.warning) log.warn(saved.warning);
}

/**
 * The keeper of a new database's first client (server/start.ts): its credentials go into
 * serve's profile before the database has the client, and credentials that profile holds
 * for this database are taken up by the next start when the one that saved them stopped
 * before adding them. `saved` is the profile's answer, logged once the server listens.
 */
export function firstClientKeeper(
  ctx: CliContext,
  opts: { name?: string; host: string; overwrite?: boolean },
): FirstClientKeeper & { saved?: ServeProfileResult } {
  const keeper: FirstClientKeeper & { saved?: ServeProfileResult } = {
    async pending(location) {
      const { openProfileStore } = await import('../../config/profile-store.js');
      const { LOCAL_PROFILE, sameServeDb } = await import('../../config/local-profile.js');
      const profile = openProfileStore(ctx.env).get(opts.name ?? LOCAL_PROFILE);
      if (location === ':memory:' || !profile?.serveDb || !sameServeDb(profile.serveDb, location) || !profile.clientId || !profile.clientSecret) return undefined;
      return { clientId: profile.clientId, clientSecret: profile.clientSecret };
    },
    async keep(client, baseUrl, location) {
      const { saveServeProfile, LOCAL_PROFILE } = await import('../../config/local-profile.js');
      keeper.saved = await saveServeProfile(ctx, {
        name: opts.name ?? LOCAL_PROFILE,
        baseUrl: clientBaseUrl(baseUrl, opts.host),
        database: location,
        ...client,
        overwrite: opts.overwrite,
        answers: (url) => fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) }).then(() => true, () => false),
      });
      return keeper.saved.saved;
    },
  };
  return keeper;
}
