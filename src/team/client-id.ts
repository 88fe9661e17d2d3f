import { usageError } from '../core/exit-codes.js';

/** What an API client's id may be (docs/guides/team-access.md): it goes in URLs, logs and scripts as it is. */
export const CLIENT_ID_RULE = '1 to 64 characters of A-Z a-z 0-9 . _ - @';

const CLIENT_ID = /^[A-Za-z0-9._@-]{1,64}$/;

/** A quoted id for a message: one line, however long or strange the input. */
function shown(raw: string): string {
  const quoted = JSON.stringify(raw);
  return raw.length > 40 ? `${JSON.stringify(raw.slice(0, 32))}… (${raw.length} characters)` : quoted;
}

/** CLIENT_ID (or `--client`), checked before any database is opened: exit 2 naming the rule. */
export function parseClientId(raw: string, what = 'CLIENT_ID'): string {
  if (CLIENT_ID.test(raw)) return raw;
  throw usageError(`${what} must be ${CLIENT_ID_RULE}, not ${shown(raw)}`);
}
