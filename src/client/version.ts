import type { ApiVersion } from '../contract/enums.js';
import { usageError } from '../core/exit-codes.js';

/**
 * Picks the API version of one call (docs/manual/help-api-versions.md):
 * - `auto`: plain reads that v1 serves go to v1 (the stable version); a call that needs a
 *   v2 feature (a filter, sort, include, create, add, events) goes to v2;
 * - `v2`: always v2;
 * - `v1`: v1, and a v2-only feature is a usage error (exit 2) naming the option and the way out.
 *
 * `v2Features` names what the call asks for that only v2 serves, as the user wrote it
 * (`--status`, `--sort`, `chambers create`); empty for a plain read.
 * `pinnedBy` says where a `v1` pin came from, so the message can tell how to undo it.
 */
export function chooseApiVersion(
  setting: 'auto' | 'v1' | 'v2',
  v2Features: readonly string[],
  pinnedBy: { flag: boolean; profile: string },
): ApiVersion {
  if (setting === 'v2') return 'v2';
  if (setting === 'auto') return v2Features.length > 0 ? 'v2' : 'v1';
  const [first] = v2Features;
  if (first === undefined) return 'v1';
  const what = v2Features.length > 1 ? `${v2Features.join(', ')} need` : `${first} needs`;
  throw usageError(
    pinnedBy.flag
      ? `${what} API v2, but --api-version v1 was given; use --api-version v2 or auto`
      : `${what} API v2, but profile "${pinnedBy.profile}" is pinned to v1; ` +
          `use --api-version v2, or unpin it with \`chamberctl config set api-version auto\``,
  );
}

/** The version for one call of a session, `--api-version` on the command line taking precedence. */
export function sessionVersion(
  session: { apiVersion: 'auto' | 'v1' | 'v2'; profileName: string },
  v2Features: readonly string[],
  apiVersionFlag: 'auto' | 'v1' | 'v2' | undefined,
): ApiVersion {
  return chooseApiVersion(session.apiVersion, v2Features, {
    flag: apiVersionFlag !== undefined,
    profile: session.profileName,
  });
}
