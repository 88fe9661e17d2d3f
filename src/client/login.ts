import type { CliContext } from '../core/context.js';
import type { ApiVersion } from '../contract/index.js';
import type { ApiVersionSetting } from '../config/profile.js';
import { openProfileStore } from '../config/profile-store.js';
import { shouldBecomeCurrent } from '../config/select.js';
import { httpClientFor } from './create-http.js';
import { requestToken, tokenVersion, type Credentials } from './tokens.js';

export interface LoginInput {
  profile: string;
  baseUrl: string;
  apiVersion: ApiVersionSetting;
  credentials: Credentials;
  verbose?: boolean;
}

export interface LoginResult {
  profile: string;
  baseUrl: string;
  clientId: string;
  apiVersion: ApiVersionSetting;
  /** The version whose token endpoint checked the credentials. */
  verifiedWith: ApiVersion;
  madeCurrent: boolean;
  /** The scope the server gave the token, when it named one. */
  scope?: string;
}

/**
 * Checks the credentials with a token request to the version the profile will use (v2 for
 * `auto`) and only then saves the profile, with that token cached. Wrong credentials are
 * exit 3 and leave the config untouched.
 */
export async function login(input: LoginInput, ctx: CliContext): Promise<LoginResult> {
  const store = openProfileStore(ctx.env);
  const version = tokenVersion(input.apiVersion);
  const http = httpClientFor({ verbose: input.verbose }, ctx);
  let token;
  try {
    token = await requestToken(http, input.baseUrl, version, input.credentials, ctx.now, (said, baseUrl) => `${baseUrl} rejected the client credentials (${said}); check the client id and secret`);
  } finally {
    await http.close();
  }
  const madeCurrent = shouldBecomeCurrent(store, input.profile);
  await store.set(input.profile, {
    baseUrl: input.baseUrl,
    clientId: input.credentials.clientId,
    clientSecret: input.credentials.clientSecret,
    apiVersion: input.apiVersion,
    tokens: { [version]: token },
  });
  if (madeCurrent) await store.setCurrent(input.profile);
  return {
    profile: input.profile,
    baseUrl: input.baseUrl,
    clientId: input.credentials.clientId,
    apiVersion: input.apiVersion,
    verifiedWith: version,
    madeCurrent,
    ...(token.scope !== undefined && { scope: token.scope }),
  };
}
