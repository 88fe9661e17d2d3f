import { usageError } from '../core/exit-codes.js';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';

/**
 * Checks a base URL (`http(s)://host[:port][/prefix]`) and returns it without a trailing
 * slash; the version segment (`/v1`, `/v2`) is appended to it, so a URL given with one (as
 * `serve` prints `http://127.0.0.1:8080/v2`) is taken without it.
 */
export function normaliseBaseUrl(value: string, what = '--base-url'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw usageError(`${what} must be an http:// or https:// URL, not "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw usageError(`${what} must be an http:// or https:// URL, not "${value}"`);
  }
  if (url.username || url.password) throw usageError(`${what} must not contain a user name or password`);
  if (url.search || url.hash) throw usageError(`${what} must not contain a query or fragment`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/v[12]$/, '')}`;
}
