import { dateParam } from '../contract/queries.js';
import { usageError } from '../core/exit-codes.js';

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** The longest `clients rotate --grace`: a month is time enough to deploy a new secret everywhere. */
export const MAX_GRACE_MS = 30 * UNIT_MS.d;
export const MAX_GRACE = '30d';

/** `--limit` of `audit`. */
export const AUDIT_LIMIT = { default: 100, max: 10_000 } as const;

/** `90s`, `15m`, `2h`, `7d`, or `0`: milliseconds; undefined when it is not of that form. */
export function durationMs(raw: string): number | undefined {
  if (raw === '0') return 0;
  const m = /^(\d{1,9})([smhd])$/.exec(raw);
  return m ? Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS] : undefined;
}

/** `clients rotate --grace`: how long the old secret keeps working (default 0: not at all). */
export function parseGrace(raw = '0'): number {
  const ms = durationMs(raw);
  if (ms === undefined) throw usageError(`--grace must be a duration such as 90s, 15m, 2h or 1d (or 0), not ${JSON.stringify(raw)}`);
  if (ms > MAX_GRACE_MS) throw usageError(`--grace must be at most ${MAX_GRACE}, not ${JSON.stringify(raw)}`);
  return ms;
}

const sinceDate = dateParam('start');
const EARLIEST = Date.parse('0000-01-01T00:00:00.000Z');

/**
 * `audit --since`: an ISO 8601 date (from its first instant, UTC) or date-time with Z or an
 * offset, or a duration back from `now` (`24h`); the instant as UTC ISO 8601 with ms.
 */
export function parseSince(raw: string, now: Date): string {
  const ms = durationMs(raw);
  if (ms !== undefined) {
    // no earlier than 0000-01-01, whose text still sorts as the instant does (nothing is older)
    return new Date(Math.max(now.getTime() - ms, EARLIEST)).toISOString();
  }
  const parsed = sinceDate.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw usageError(`--since must be an ISO 8601 date (2026-11-01) or date-time (2026-11-01T09:00:00Z), or a duration back from now such as 24h or 7d, not ${JSON.stringify(raw)}`);
}

/** `audit --limit`: 1 to 10000 records, 100 when absent. */
export function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return AUDIT_LIMIT.default;
  const n = /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= AUDIT_LIMIT.max)) throw usageError(`--limit must be a whole number from 1 to ${AUDIT_LIMIT.max}, not ${JSON.stringify(raw)}`);
  return n;
}
