import type { Prng } from './prng.js';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const YEAR = 365 * DAY;

/** A whole millisecond in [lo, hi); `lo` when the range is empty. */
export function between(prng: Prng, lo: number, hi: number): number {
  return hi > lo ? lo + Math.floor(prng.float() * (hi - lo)) : lo;
}

/** `Date#toISOString()` form: fixed width, so string order is time order (years 0–9999). */
export const iso = (ms: number) => new Date(ms).toISOString();
