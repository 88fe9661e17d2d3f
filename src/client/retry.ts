// When and how long to wait before repeating a request.

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** The backoff ceiling doubles from this with each retry... */
  baseDelayMs: number;
  /** ...up to this. The delay is drawn uniformly below the ceiling ("full jitter"). */
  maxDelayMs: number;
  /**
   * A server's Retry-After is obeyed up to this; a longer one ends the retries at once
   * (waiting minutes would look like a hang, and retrying sooner than asked is rude).
   */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  maxRetryAfterMs: 30_000,
};

/** Statuses that say "try again later" without the request having had any effect. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/**
 * Error codes raised before a single byte of the request left this machine: the request
 * surely never reached the server, so even a POST may be repeated.
 */
const NEVER_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The error code of a network failure (undici and node:net errors; happy-eyeballs AggregateErrors). */
export function networkErrorCode(err: unknown): string | undefined {
  if (!err || typeof err !== 'object') return undefined;
  const e = err as { code?: unknown; errors?: unknown[]; cause?: unknown };
  if (typeof e.code === 'string') return e.code;
  if (Array.isArray(e.errors) && e.errors.length) return networkErrorCode(e.errors[0]);
  if (e.cause) return networkErrorCode(e.cause);
  return undefined;
}

export function neverReachedServer(err: unknown): boolean {
  const code = networkErrorCode(err);
  return code !== undefined && NEVER_SENT_CODES.has(code);
}

/** Delay before retry number `retry` (0 for the first retry): uniform in [0, min(max, base·2^retry)). */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/**
 * Retry-After in milliseconds from now: delta-seconds or an HTTP date (RFC 9110 10.2.3).
 * undefined when absent or unreadable; a date in the past gives 0.
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined) return undefined;
  const text = v.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // an HTTP date names a day or month (`Sun, 06 Nov 1994 08:49:37 GMT`); Date.parse alone would take "-1"
  if (!/[A-Za-z]{3}/.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}
