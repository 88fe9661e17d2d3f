import { isIP } from 'node:net';
import { CliError, ExitCode } from '../core/exit-codes.js';

/**
 * Where credentials may go. A profile's credentials belong to the origin (scheme, host and
 * port) they were saved for, as gh keys every token by host (go-gh `auth.TokenForHost`); and
 * a client secret or token crosses the network only inside TLS (RFC 6749 2.3.1 and 3.2,
 * RFC 6750 5.3), except to this machine itself, where there is no network to cross.
 */

/** `http://127.0.0.1:8080/prefix` → `http://127.0.0.1:8080`. */
export function originOf(baseUrl: string): string {
  return new URL(baseUrl).origin;
}

export function sameOrigin(a: string, b: string): boolean {
  return originOf(a) === originOf(b);
}

/** 127.0.0.0/8, ::1 (also as an IPv4-mapped address) and `localhost`. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host === '::1') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  // the URL parser writes ::ffff:127.0.0.1 as ::ffff:7f00:1
  return isIP(host) === 6 && /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host);
}

/** Whether credentials may be sent to this base URL: https anywhere, http only to loopback. */
export function mayCarryCredentials(baseUrl: string): boolean {
  const url = new URL(baseUrl);
  return url.protocol === 'https:' || isLoopbackHost(url.hostname);
}

/**
 * Exit 3 before a client secret or token would travel in clear text. `what` names it
 * ("the client secret", "a token").
 */
export function refuseCleartext(baseUrl: string, what: string): void {
  if (mayCarryCredentials(baseUrl)) return;
  throw new CliError(
    `refusing to send ${what} to ${originOf(baseUrl)} over plain http: use its https:// URL ` +
      '(a TLS proxy in front of serve), or reach it through a loopback address (ssh -L 8080:localhost:8080 HOST, then http://127.0.0.1:8080)',
    ExitCode.AUTH,
  );
}
