// What --verbose may print: never a secret or a token.

export const REDACTED = '[redacted]';

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
const SECRET_KEYS = new Set([
  'client_secret',
  'access_token',
  'refresh_token',
  'id_token',
  'token',
  'password',
  'secret',
  'clientsecret',
  'accesstoken',
]);

export function redactHeader(name: string, value: string): string {
  if (!SECRET_HEADERS.has(name.toLowerCase())) return value;
  // keep the scheme ("Bearer", "Basic"): it helps debugging and reveals nothing
  const scheme = /^(\w+)\s+\S/.exec(value)?.[1];
  return scheme ? `${scheme} ${REDACTED}` : REDACTED;
}

/** A copy of a JSON value with every secret-looking key's value replaced. */
export function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = SECRET_KEYS.has(k.toLowerCase().replace(/-/g, '_')) ? REDACTED : redactJson(v);
    }
    return out;
  }
  return value;
}

/**
 * A body for the log: JSON with secrets redacted; other text shown only when not
 * sensitive. Long bodies are cut.
 */
export function redactBody(text: string, sensitive: boolean, limit = 2_000): string {
  if (!text) return '';
  let shown: string;
  try {
    shown = JSON.stringify(redactJson(JSON.parse(text)));
  } catch {
    shown = sensitive ? `${REDACTED} (${text.length} bytes)` : text;
  }
  return shown.length > limit ? `${shown.slice(0, limit)}… (${shown.length} characters)` : shown;
}
