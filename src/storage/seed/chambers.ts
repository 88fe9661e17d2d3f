import type { ChamberStatus } from '../../contract/index.js';
import type { ChamberRow } from '../rows.js';
import { COUNTRIES, formatStreet, STREETS, type City, type Country } from './places.js';
import type { Prng } from './prng.js';
import type { SeedSize } from './sizes.js';
import { between, DAY, HOUR, MINUTE, YEAR } from './time.js';
import { BRANCH_KINDS, CHAMBER_NAME_PATTERNS, NAME_QUALIFIERS } from './words.js';

/** A chamber row plus what the member and event generators need to know about it. */
export interface SeedChamber {
  row: ChamberRow;
  country: Country;
  createdMs: number;
}

const CHAMBER_STATUS_WEIGHTS: [ChamberStatus, number][] = [
  ['active', 82],
  ['inactive', 10],
  ['pending', 8],
];

/** Every city with its country, so a uniform pick favours countries with more cities. */
const PLACES: { country: Country; city: City }[] = COUNTRIES.flatMap((country) =>
  country.cities.map((city) => ({ country, city })),
);

/**
 * HQs first (index 0 is the flagship: active, the oldest chamber, the most members), then
 * subsidiaries, each pointing at an HQ created before it. Pending chambers are recent.
 */
export function generateChambers(prng: Prng, size: SeedSize, nowMs: number): SeedChamber[] {
  const names = new Set<string>();
  const out: SeedChamber[] = [];

  for (let i = 0; i < size.hqs; i++) {
    const { country, city } = prng.pick(PLACES);
    const status = i === 0 ? 'active' : prng.weighted(CHAMBER_STATUS_WEIGHTS);
    const createdMs =
      i === 0
        ? nowMs - 20 * YEAR
        : status === 'pending'
          ? between(prng, nowMs - 60 * DAY, nowMs - HOUR)
          : between(prng, nowMs - 15 * YEAR, nowMs - 60 * DAY);
    const name = uniqueName(names, prng.pick(CHAMBER_NAME_PATTERNS).replace('{city}', city.name));
    out.push(chamber(prng, { id: prng.id('ch'), name, type: 'hq', hq_id: null, status, country, city, createdMs }));
  }

  const hqs = out.slice();
  for (let i = 0; i < size.subsidiaries; i++) {
    // Mostly uniform, partly skewed towards the first HQs, so a few HQs have many subsidiaries.
    const u = prng.float();
    const hq = hqs[prng.chance(0.7) ? Math.floor(u * hqs.length) : Math.floor(u * u * hqs.length)]!;
    const abroad = prng.chance(0.25) || hq.country.cities.length === 1;
    let place = abroad ? prng.pick(PLACES) : { country: hq.country, city: prng.pick(hq.country.cities) };
    if (place.city.name === hq.row.city) place = prng.pick(PLACES); // a branch sits elsewhere
    const status = prng.weighted(CHAMBER_STATUS_WEIGHTS);
    // After its HQ; pending ones within the last 60 days; never in the future.
    const from = status === 'pending' ? Math.max(hq.createdMs + 1, nowMs - 60 * DAY) : hq.createdMs + DAY;
    const to = status === 'pending' ? nowMs - HOUR : nowMs - 60 * DAY;
    const createdMs = from < to ? between(prng, from, to) : between(prng, hq.createdMs + 1, nowMs - MINUTE);
    const name = branchName(prng, names, `${hq.row.name} – ${place.city.name}`);
    out.push(
      chamber(prng, {
        id: prng.id('ch'),
        name,
        type: 'subsidiary',
        hq_id: hq.row.id,
        status,
        country: place.country,
        city: place.city,
        createdMs,
      }),
    );
  }
  return out;
}

// The row is built from the generated parts, not mapped from a Chamber (rows.ts's
// chamberRowOf does that for records copied from elsewhere).
function chamber(
  prng: Prng,
  c: Pick<ChamberRow, 'id' | 'name' | 'type' | 'hq_id' | 'status'> & { country: Country; city: City; createdMs: number },
): SeedChamber {
  const streets = STREETS[c.country.culture];
  const street = formatStreet(streets.style, prng.pick(streets.names), prng.int(1, 240), prng.int(1, 9), prng.int(1, 30));
  return {
    row: {
      id: c.id,
      name: c.name,
      type: c.type,
      hq_id: c.hq_id,
      status: c.status,
      street,
      city: c.city.name,
      // None where the country has none, and a few records that just lack one.
      postal_code: c.city.postal === null || prng.chance(0.03) ? null : prng.pattern(c.city.postal),
      country: c.country.code,
      created_at: new Date(c.createdMs).toISOString(),
    },
    country: c.country,
    createdMs: c.createdMs,
  };
}

/** `base`, else "Greater base" … (for city-based names), else "base 2", "base 3", … */
function uniqueName(taken: Set<string>, base: string, qualify = true): string {
  const candidates = qualify ? [base, ...NAME_QUALIFIERS.map((q) => `${q} ${base}`)] : [base];
  for (const name of candidates) {
    if (!taken.has(name)) return take(taken, name);
  }
  for (let n = 2; ; n++) {
    const name = `${base} ${n}`;
    if (!taken.has(name)) return take(taken, name);
  }
}

/** "HQ – City Office", else another kind of branch in that city, else "… Office 2", … */
function branchName(prng: Prng, taken: Set<string>, prefix: string): string {
  const first = prng.int(0, BRANCH_KINDS.length - 1);
  for (let k = 0; k < BRANCH_KINDS.length; k++) {
    const name = `${prefix} ${BRANCH_KINDS[(first + k) % BRANCH_KINDS.length]}`;
    if (!taken.has(name)) return take(taken, name);
  }
  return uniqueName(taken, `${prefix} ${BRANCH_KINDS[first]}`, false);
}

function take(taken: Set<string>, name: string): string {
  taken.add(name);
  return name;
}
