import type { ProfileStore } from './profile-store.js';
import { DEFAULT_PROFILE, checkProfileName } from './profile.js';

export type ProfileSource = 'flag' | 'env' | 'current' | 'default';

/** `--profile` > CHAMBERCTL_PROFILE > the profile saved by `profiles use` > `default`. */
export function selectProfile(
  globals: { profile?: string },
  env: Record<string, string | undefined>,
  store: Pick<ProfileStore, 'current'>,
): { name: string; source: ProfileSource } {
  if (globals.profile) return { name: checkProfileName(globals.profile), source: 'flag' };
  if (env.CHAMBERCTL_PROFILE) return { name: checkProfileName(env.CHAMBERCTL_PROFILE), source: 'env' };
  const current = store.current();
  if (current) return { name: current, source: 'current' };
  return { name: DEFAULT_PROFILE, source: 'default' };
}

/** The profile commands use when neither --profile nor CHAMBERCTL_PROFILE is given. */
export function savedSelection(store: Pick<ProfileStore, 'current'>): string {
  return store.current() ?? DEFAULT_PROFILE;
}

/**
 * Whether a newly written profile should become the current one: only when nothing else
 * would be picked, i.e. no current profile is saved and there is no `default` profile.
 */
export function shouldBecomeCurrent(store: Pick<ProfileStore, 'current' | 'get'>, name: string): boolean {
  if (store.current()) return false;
  return name !== DEFAULT_PROFILE && store.get(DEFAULT_PROFILE) === undefined;
}

/** `run \`chamberctl login\``, naming the profile when it came from --profile. */
export function loginHint(name: string, source: ProfileSource): string {
  return source === 'flag' ? `run \`chamberctl login --profile ${name}\`` : 'run `chamberctl login`';
}

/**
 * What to do about a profile that does not exist: log in to a server, or start a local one
 * (`serve` writes its profile, `local` unless --profile, and makes it current for a new user).
 */
export function missingProfileHint(name: string, source: ProfileSource): string {
  const serve = source === 'flag' ? `\`chamberctl serve --profile ${name}\`` : '`chamberctl serve`';
  return `${loginHint(name, source)} for a server, or start a local one with ${serve}`;
}
