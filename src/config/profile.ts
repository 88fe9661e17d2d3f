import * as z from 'zod/mini';
import '../contract/locale.js';
import { usageError } from '../core/exit-codes.js';

export const API_VERSION_SETTINGS = ['auto', 'v1', 'v2'] as const;
export type ApiVersionSetting = (typeof API_VERSION_SETTINGS)[number];

/** A token cached in the profile. `baseUrl` is the server that issued it. */
export const CachedToken = z.object({
  accessToken: z.string().check(z.minLength(1)),
  /** ISO 8601 */
  expiresAt: z.string(),
  baseUrl: z.string(),
  /** What the server said the token may do (`read`, `write`), when it said. */
  scope: z.optional(z.string()),
});
export type CachedToken = z.infer<typeof CachedToken>;

export const Profile = z.object({
  baseUrl: z.string(),
  clientId: z.optional(z.string()),
  clientSecret: z.optional(z.string()),
  apiVersion: z._default(z.enum(API_VERSION_SETTINGS), 'auto'),
  /** Set by `chamberctl serve`: the database of the server this profile belongs to. */
  serveDb: z.optional(z.string()),
  /** `config set output`: the lists' output when neither --format nor --json is given. */
  output: z.optional(z.enum(['table', 'tsv', 'json', 'csv'])),
  /** `config set prompt disabled`: never ask for a missing option, even on a terminal. */
  prompt: z.optional(z.enum(['enabled', 'disabled'])),
  tokens: z._default(z.object({ v1: z.optional(CachedToken), v2: z.optional(CachedToken) }), {}),
});
export type Profile = z.infer<typeof Profile>;

export const DEFAULT_PROFILE = 'default';

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function checkProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw usageError(
      `profile name "${name}" is not valid: use letters, digits, ".", "_" and "-" (up to 64, starting with a letter or digit)`,
    );
  }
  return name;
}

export function hasCredentials(p: Profile | undefined): p is Profile & { clientId: string; clientSecret: string } {
  return Boolean(p?.clientId && p.clientSecret);
}
