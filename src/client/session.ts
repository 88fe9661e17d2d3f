import type { CliContext, GlobalOptions } from '../core/context.js';
import { CliError, ExitCode } from '../core/exit-codes.js';
import type { ApiVersion } from '../contract/index.js';
import { normaliseBaseUrl } from '../config/base-url.js';
import { hasCredentials, type CachedToken, type Profile } from '../config/profile.js';
import { serveCredentialsHint } from '../config/local-profile.js';
import { openProfileStore, type ProfileStore } from '../config/profile-store.js';
import { loginHint, missingProfileHint, selectProfile } from '../config/select.js';
import { httpClientFor } from './create-http.js';
import { DirectoryClient } from './directory-client.js';
import type { HttpClient, HttpClientOptions } from './http.js';
import { originOf, sameOrigin } from './origin.js';
import { TokenProvider, tokenVersion, type Credentials, type RefusedMessage, type TokenCache } from './tokens.js';
import type { Session } from './types.js';

export interface OpenedProfile {
  name: string;
  profile: Profile & { clientId: string; clientSecret: string };
  baseUrl: string;
  apiVersion: 'auto' | 'v1' | 'v2';
  http: HttpClient;
  tokens: TokenProvider;
}

/**
 * The selected profile, ready for calls. Exit 3 when it does not exist or has no
 * credentials. `--base-url` points this one command elsewhere on the profile's own origin
 * (tokens from there are used but not saved); a profile's credentials never go to another
 * origin: there, the command takes CHAMBERCTL_CLIENT_ID and CHAMBERCTL_CLIENT_SECRET, or
 * stops with exit 3 naming a profile saved for it (docs/guides/profiles-and-auth.md#where-credentials-go).
 */
export function openProfileForCalls(globals: GlobalOptions, ctx: CliContext, extra: HttpClientOptions = {}): OpenedProfile {
  const store = openProfileStore(ctx.env);
  const { name, source } = selectProfile(globals, ctx.env, store);
  const profile = store.get(name);
  const hint = loginHint(name, source);
  const oneOff = globals.baseUrl ? normaliseBaseUrl(globals.baseUrl) : undefined;
  if (oneOff !== undefined && (!profile || !sameOrigin(oneOff, profile.baseUrl))) {
    const fromEnv = environmentCredentials(ctx.env);
    if (fromEnv) return openWithEnvironment(name, profile, oneOff, fromEnv, globals, ctx, extra);
    if (profile) throw new CliError(otherOriginMessage(name, profile.baseUrl, oneOff, store), ExitCode.AUTH);
  }
  if (!profile) throw new CliError(`there is no profile "${name}"; ${missingProfileHint(name, source)}`, ExitCode.AUTH);
  if (!hasCredentials(profile)) {
    const next = profile.serveDb && profile.serveDb !== ':memory:' ? serveCredentialsHint(name, profile.serveDb) : hint;
    throw new CliError(`profile "${name}" has no credentials; ${next}`, ExitCode.AUTH);
  }

  const baseUrl = oneOff ?? profile.baseUrl;
  const http = httpClientFor(globals, ctx, extra);
  const tokens = new TokenProvider({
    http,
    baseUrl,
    credentials: { clientId: profile.clientId, clientSecret: profile.clientSecret },
    cache: profileTokenCache(store, name, { baseUrl, clientId: profile.clientId, persist: baseUrl === profile.baseUrl }),
    now: ctx.now,
    refused: savedCredentialsRefused(name, profile.clientId, baseUrl !== profile.baseUrl),
  });
  return { name, profile, baseUrl, apiVersion: globals.apiVersion ?? profile.apiVersion, http, tokens };
}

/** Both CHAMBERCTL_CLIENT_ID and CHAMBERCTL_CLIENT_SECRET, when both are set. */
function environmentCredentials(env: Record<string, string | undefined>): Credentials | undefined {
  const clientId = env.CHAMBERCTL_CLIENT_ID?.trim();
  const clientSecret = env.CHAMBERCTL_CLIENT_SECRET?.trim();
  return clientId && clientSecret ? { clientId, clientSecret } : undefined;
}

/** `--base-url` of another origin with the environment's credentials; nothing is saved. */
function openWithEnvironment(
  name: string,
  saved: Profile | undefined,
  baseUrl: string,
  credentials: Credentials,
  globals: GlobalOptions,
  ctx: CliContext,
  extra: HttpClientOptions,
): OpenedProfile {
  const http = httpClientFor(globals, ctx, extra);
  const profile = { baseUrl, ...credentials, apiVersion: saved?.apiVersion ?? 'auto', tokens: {} } as const;
  const tokens = new TokenProvider({
    http,
    baseUrl,
    credentials,
    cache: { load: () => undefined, save: () => undefined },
    now: ctx.now,
    refused: (said, url) =>
      `${url} refused client ${credentials.clientId} from CHAMBERCTL_CLIENT_ID and CHAMBERCTL_CLIENT_SECRET (${said})`,
  });
  return { name, profile, baseUrl, apiVersion: globals.apiVersion ?? profile.apiVersion, http, tokens };
}

/** The one line when --base-url names an origin the profile holds no credentials for. */
function otherOriginMessage(name: string, savedUrl: string, oneOff: string, store: ProfileStore): string {
  const origin = originOf(oneOff);
  const there = store
    .list()
    .filter((e) => hasCredentials(e.profile) && sameOrigin(e.profile.baseUrl, oneOff))
    .map((e) => e.name);
  const use = there.length > 0 ? `use --profile ${there[0]} (saved for it)` : `log in to it (chamberctl login --profile NAME --base-url ${oneOff})`;
  return (
    `profile "${name}" holds credentials for ${originOf(savedUrl)} only, not for ${origin}: ` +
    `${use}, or set CHAMBERCTL_CLIENT_ID and CHAMBERCTL_CLIENT_SECRET for it`
  );
}

/**
 * A saved secret that the server stops accepting was revoked or rotated (login checked it
 * when it was saved): logging in again with it cannot help, a new secret from whoever runs
 * the directory can. Sent to another path of its origin with --base-url (another server
 * behind the same proxy), it may simply be unknown there.
 */
export function savedCredentialsRefused(name: string, clientId: string, oneOffServer: boolean): RefusedMessage {
  return (said, baseUrl) =>
    `profile "${name}": ${baseUrl} refused client ${clientId} (${said}); ` +
    (oneOffServer
      ? "--base-url sent the profile's credentials to another path of its origin, which may not know the client"
      : "the client may have been revoked or its secret rotated: ask the directory's operator for a new secret, " +
        `then log in with it (chamberctl login --profile ${name})`);
}

/** Whether a token's scope (RFC 6749: words separated by spaces) is known to allow reading only. */
export function readsOnly(scope: string | undefined): boolean {
  const words = scope?.split(' ').filter(Boolean) ?? [];
  return words.length > 0 && words.every((w) => w === 'read');
}

/**
 * Before a command that writes (POSTs through the profile) prompts or sends anything: the
 * profile's v2 token, and exit 3 when the client holds only the read scope. A cached token
 * that allows writing is trusted (if the scope was taken away since, the server's 403 says
 * so); a cached read-only one is not, since the operator may have granted write since: the
 * scope is asked again with one token request, as it is when no fresh token is cached. A
 * token that names no scope (a server that does not say) lets the command go on.
 */
export async function requireWriteScope(p: Pick<OpenedProfile, 'name' | 'profile' | 'tokens'>, command: string): Promise<void> {
  let token = await p.tokens.tokenInfo('v2');
  if (readsOnly(token.scope)) token = await p.tokens.issuedInfo('v2');
  if (!readsOnly(token.scope)) return;
  const id = p.profile.clientId;
  throw new CliError(
    `profile "${p.name}" (client ${id}) has only the read scope; ${command} needs write: ` +
      `ask the directory's operator for a write client (chamberctl clients edit ${id} --scope write) or use a profile that has one`,
    ExitCode.AUTH,
  );
}

/** What resource commands call: the API of the selected profile. Close it when done. */
export async function openSession(globals: GlobalOptions, ctx: CliContext, extra: HttpClientOptions = {}): Promise<Session> {
  const p = openProfileForCalls(globals, ctx, extra);
  return {
    api: new DirectoryClient(p.http, p.tokens, p.baseUrl),
    apiVersion: p.apiVersion,
    profileName: p.name,
    requireWrite: (command) => requireWriteScope(p, command),
    close: () => p.http.close(),
  };
}

/**
 * `auth token`: the cached token of the selected profile while it is fresh, else a new one
 * (saved). The version is --api-version or the profile's; `auto` means v2.
 */
export async function getAccessToken(
  globals: GlobalOptions,
  ctx: CliContext,
): Promise<CachedToken & { version: ApiVersion; profileName: string }> {
  const p = openProfileForCalls(globals, ctx);
  const version = tokenVersion(p.apiVersion);
  try {
    return { ...(await p.tokens.tokenInfo(version)), version, profileName: p.name };
  } finally {
    await p.http.close();
  }
}

/**
 * Tokens kept in the profile. A token is saved only while the profile still names the same
 * server and client (another command may have logged in meanwhile) and not for a one-off
 * --base-url. Saving is best effort: a read-only config must not fail the command.
 */
export function profileTokenCache(
  store: ProfileStore,
  name: string,
  expect: { baseUrl: string; clientId: string; persist: boolean },
): TokenCache {
  return {
    load: (version) => {
      const p = store.get(name);
      return p?.clientId === expect.clientId ? p.tokens[version] : undefined;
    },
    save: async (version, token) => {
      if (!expect.persist) return;
      try {
        const p = store.get(name);
        if (!p || p.baseUrl !== expect.baseUrl || p.clientId !== expect.clientId) return;
        await store.set(name, { ...p, tokens: { ...p.tokens, [version]: token } });
      } catch {
        // the token still serves this command
      }
    },
  };
}
