import type { ApiVersion } from '../contract/index.js';
import type { ProfileStore } from './profile-store.js';
import { hasCredentials, type Profile } from './profile.js';

/** What `auth status` and `profiles list` show of a profile: never a secret or a token. */
export interface ProfileInfo {
  name: string;
  current: boolean;
  base_url: string;
  client_id: string | null;
  api_version: Profile['apiVersion'];
  logged_in: boolean;
  /** `scope` when the server named the token's scope. */
  tokens: Record<ApiVersion, { expires_at: string; valid: boolean; scope?: string } | null>;
}

export function profileInfo(name: string, profile: Profile, current: boolean, now: Date): ProfileInfo {
  const token = (v: ApiVersion) => {
    const t = profile.tokens[v];
    return t ? { expires_at: t.expiresAt, valid: Date.parse(t.expiresAt) > now.getTime(), ...(t.scope !== undefined && { scope: t.scope }) } : null;
  };
  return {
    name,
    current,
    base_url: profile.baseUrl,
    client_id: profile.clientId ?? null,
    api_version: profile.apiVersion,
    logged_in: hasCredentials(profile),
    tokens: { v1: token('v1'), v2: token('v2') },
  };
}

/** Every profile, `selected` marked current. */
export function listProfiles(store: ProfileStore, selected: string, now: Date): ProfileInfo[] {
  return store.list().map(({ name, profile }) => profileInfo(name, profile, name === selected, now));
}

/** Drops the secret and the cached tokens; false when there was nothing to drop. */
export async function logoutProfile(store: ProfileStore, name: string): Promise<boolean> {
  const p = store.get(name);
  if (!p || (!p.clientSecret && !p.tokens.v1 && !p.tokens.v2)) return false;
  const { clientSecret: _secret, ...rest } = p;
  await store.set(name, { ...rest, tokens: {} });
  return true;
}
