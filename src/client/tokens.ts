import { CliError, ExitCode } from '../core/exit-codes.js';
import { TokenAnswer, type ApiVersion } from '../contract/index.js';
import type { CachedToken } from '../config/profile.js';
import { errorFromResponse, serverMessage } from './errors.js';
import type { HttpClient } from './http.js';
import { refuseCleartext } from './origin.js';

/** A cached token is used until this long before it expires. */
export const EXPIRY_MARGIN_MS = 60_000;

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

/** Where tokens outlive the command (the profile); failures to save are the cache's business. */
export interface TokenCache {
  load(version: ApiVersion): CachedToken | undefined;
  save(version: ApiVersion, token: CachedToken): void | Promise<void>;
}

/** The version a token is needed for: `auto` means v2, the version every command can use. */
export function tokenVersion(setting: 'auto' | 'v1' | 'v2'): ApiVersion {
  return setting === 'auto' ? 'v2' : setting;
}

export function tokenEndpoint(baseUrl: string, version: ApiVersion): string {
  return `${baseUrl}/${version}/auth/token`;
}

export function isFresh(token: CachedToken | undefined, baseUrl: string, now: Date): token is CachedToken {
  if (!token || token.baseUrl !== baseUrl) return false;
  const expires = Date.parse(token.expiresAt);
  return Number.isFinite(expires) && expires - EXPIRY_MARGIN_MS > now.getTime();
}

/** The one line for credentials the token endpoint refused; `said` is the server's reason. */
export type RefusedMessage = (said: string, baseUrl: string) => string;

const checkTheCredentials: RefusedMessage = (said, baseUrl) => `${baseUrl} rejected the client credentials (${said}); run \`chamberctl login\``;

/**
 * Whether the token endpoint refused the client itself: 401, or RFC 6749's `invalid_client`
 * (which section 5.2 also lets a server send with 400).
 */
function clientRefused(res: { status: number; json: unknown }): boolean {
  if (res.status === 401) return true;
  const error = typeof res.json === 'object' && res.json !== null ? (res.json as { error?: unknown }).error : undefined;
  return res.status === 400 && error === 'invalid_client';
}

/**
 * POST {base}/{version}/auth/token with the client credentials as JSON. Refused credentials
 * are exit 3, in the words of `refused` (login's and a saved profile's differ: a saved secret
 * that stops working was revoked or rotated, a typed one may be a typo). Repeating this
 * request is harmless (it only issues another token), so it is retried like a GET.
 */
export async function requestToken(
  http: HttpClient,
  baseUrl: string,
  version: ApiVersion,
  creds: Credentials,
  now: () => Date,
  refused: RefusedMessage = checkTheCredentials,
): Promise<CachedToken> {
  refuseCleartext(baseUrl, 'the client secret');
  http.addSecret(creds.clientSecret);
  const res = await http.request({
    method: 'POST',
    url: tokenEndpoint(baseUrl, version),
    json: { grant_type: 'client_credentials', client_id: creds.clientId, client_secret: creds.clientSecret },
    idempotent: true,
  });
  if (clientRefused(res)) {
    const said = serverMessage(res.json).message ?? 'client authentication failed';
    throw new CliError(refused(said, baseUrl), ExitCode.AUTH);
  }
  if (res.status !== 200) throw errorFromResponse(res);
  const parsed = TokenAnswer.safeParse(res.json);
  if (!parsed.success) {
    throw new CliError(`unexpected answer from ${tokenEndpoint(baseUrl, version)}: not a token response`, ExitCode.FAILURE);
  }
  http.addSecret(parsed.data.access_token);
  return {
    accessToken: parsed.data.access_token,
    expiresAt: new Date(now().getTime() + parsed.data.expires_in * 1000).toISOString(),
    baseUrl,
    ...(parsed.data.scope !== undefined && { scope: parsed.data.scope }),
  };
}

export interface TokenProviderOptions {
  http: HttpClient;
  baseUrl: string;
  credentials: Credentials;
  cache: TokenCache;
  now: () => Date;
  /** The message for credentials the server refuses (requestToken's `refused`). */
  refused?: RefusedMessage;
}

/**
 * Bearer tokens for one command: the cached one while it is fresh, else one new token per
 * version, requested once however many requests wait for it (the in-flight promise is shared).
 *
 * A server may revoke a token before its hour is up, any number of times in a long command
 * (docs/guides/profiles-and-auth.md#tokens): a 401 for a token that had worked gets a new token, every time. Only
 * a token refused before it ever worked, right after it was issued, ends the command, so a
 * wrong setup fails fast and never loops.
 */
export class TokenProvider {
  readonly #fetched = new Map<ApiVersion, Promise<CachedToken>>();
  readonly #known = new Map<ApiVersion, CachedToken>();
  /** The token each finished fetch of this command returned. */
  readonly #gotten = new Map<ApiVersion, CachedToken>();
  /** Tokens the server has accepted at least once in this command. */
  readonly #worked = new Set<string>();

  constructor(private readonly opts: TokenProviderOptions) {}

  async token(version: ApiVersion): Promise<string> {
    return (await this.tokenInfo(version)).accessToken;
  }

  /** The token with its expiry (for `auth token --json`). */
  async tokenInfo(version: ApiVersion): Promise<CachedToken> {
    const known = this.#known.get(version) ?? this.opts.cache.load(version);
    if (isFresh(known, this.opts.baseUrl, this.opts.now())) {
      refuseCleartext(this.opts.baseUrl, 'a token');
      this.#known.set(version, known);
      this.opts.http.addSecret(known.accessToken);
      return known;
    }
    return this.#fetch(version);
  }

  /**
   * A token the server issued during this command: the one this command already fetched
   * while it is fresh, else a new one (one token request), cached as any other. Its scope is
   * what the client holds now, whatever a cached token from before says.
   */
  issuedInfo(version: ApiVersion): Promise<CachedToken> {
    return this.#fetch(version);
  }

  /**
   * Sends one request with the version's bearer token (`send` is called with it). A 401 gets
   * a new token and the same request again (a 401 means nothing was done, so even a POST may
   * be repeated), for as long as the refused tokens are ones that had worked. Returns the
   * last answer: a 401 only when a token was refused right after it was issued.
   */
  async authorized<R extends { status: number }>(version: ApiVersion, send: (token: string) => Promise<R>): Promise<R> {
    let token = await this.token(version);
    for (;;) {
      const res = await send(token);
      if (res.status !== 401) {
        this.#worked.add(token);
        return res;
      }
      const renewed = await this.renew(version, token);
      if (!renewed) return res;
      token = renewed;
    }
  }

  /**
   * After a 401 for `rejected`: the token to try next, or undefined when `rejected` is a token
   * this command fetched that never worked (asking again would not help).
   */
  async renew(version: ApiVersion, rejected: string): Promise<string | undefined> {
    const current = this.#fetched.get(version);
    if (current) {
      const latest = await current;
      // Another request renewed while this one waited: judge against the newest token.
      if (this.#fetched.get(version) !== current) return this.renew(version, rejected);
      if (latest.accessToken !== rejected) return latest.accessToken;
      // Refused right after it was issued. Once it has aged out (a command running for over
      // an hour), a new one is due anyway.
      if (!this.#worked.has(rejected) && isFresh(latest, this.opts.baseUrl, this.opts.now())) return undefined;
    }
    // The cached token, or one of ours that had worked: revoked early. Ask for another.
    return (await this.#fetch(version, true)).accessToken;
  }

  #fetch(version: ApiVersion, replace = false): Promise<CachedToken> {
    let pending = replace ? undefined : this.#fetched.get(version);
    // The token this command fetched has expired (or is about to): that fetch is spent.
    const got = this.#gotten.get(version);
    if (pending && got && !isFresh(got, this.opts.baseUrl, this.opts.now())) pending = undefined;
    if (!pending) {
      const { http, baseUrl, credentials, now, refused } = this.opts;
      pending = requestToken(http, baseUrl, version, credentials, now, refused).then(async (token) => {
        this.#known.set(version, token);
        this.#gotten.set(version, token);
        await this.opts.cache.save(version, token);
        return token;
      });
      this.#fetched.set(version, pending);
    }
    return pending;
  }
}
