import type { EventStatus } from '../../contract/index.js';
import type { EventRow } from '../rows.js';
import type { SeedChamber } from './chambers.js';
import type { Prng } from './prng.js';
import { between, DAY, HOUR, iso, MINUTE, YEAR } from './time.js';
import { EVENT_TITLES, HOTELS } from './words.js';

/**
 * `count` events of one chamber, starting between a year before and a year after `now`
 * (not before the chamber existed), on the quarter hour between 07:00 and 19:45 UTC.
 * The status follows the dates: ended before now → past, starts after now → upcoming;
 * about 6% are canceled, on either side of now. No event is in progress at `now` (there
 * is no status for that), so one that would be is moved on by whole days.
 */
export function generateEvents(
  prng: Prng,
  chamber: SeedChamber,
  count: number,
  nowMs: number,
  emit: (event: EventRow) => void,
): void {
  const lo = Math.max(nowMs - YEAR, chamber.createdMs);
  const hi = nowMs + YEAR;
  for (let i = 0; i < count; i++) {
    const day = Math.floor(between(prng, lo, hi) / DAY) * DAY;
    let start = day + prng.int(7, 19) * HOUR + prng.int(0, 3) * 15 * MINUTE;
    if (start < lo) start += DAY;
    let end = start + duration(prng);
    const canceled = prng.chance(0.06);
    while (!canceled && start <= nowMs && end >= nowMs) {
      start += DAY;
      end += DAY;
    }
    const status: EventStatus = canceled ? 'canceled' : end < nowMs ? 'past' : 'upcoming';
    emit({
      id: prng.id('ev'),
      chamber_id: chamber.row.id,
      title: title(prng, chamber.row.city, new Date(start).getUTCFullYear()),
      status,
      starts_at: iso(start),
      ends_at: iso(end),
      location: location(prng, chamber.row.city),
    });
  }
}

/** Mostly a couple of hours, sometimes a whole day, now and then a fair over several days. */
function duration(prng: Prng): number {
  const kind = prng.float();
  if (kind < 0.6) return prng.int(2, 8) * 30 * MINUTE;
  if (kind < 0.85) return prng.int(4, 9) * HOUR;
  return prng.int(1, 3) * DAY + prng.int(0, 8) * HOUR;
}

function title(prng: Prng, city: string, year: number): string {
  const base = prng.pick(EVENT_TITLES);
  const form = prng.float();
  if (form < 0.2) return `${base} ${year}`;
  if (form < 0.35) return `${city} ${base}`;
  return base;
}

function location(prng: Prng, city: string): string | null {
  const form = prng.float();
  if (form < 0.1) return null;
  if (form < 0.4) return `Chamber House, Room ${prng.int(1, 12)}`;
  if (form < 0.6) return `${prng.pick(HOTELS)}, ${city}`;
  if (form < 0.75) return `${city} Congress Centre`;
  if (form < 0.85) return `${city} Exhibition Centre, Hall ${prng.int(1, 8)}`;
  return 'Online';
}
