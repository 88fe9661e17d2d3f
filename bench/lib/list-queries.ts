import { seededRandom } from './seeded-random.js';

// The list requests of bench:server and bench:layers: a filter and sort combination and a page
// among the first 100 (the chambers and the flagship's members), or among those a filter has
// (the flagship's 1,000 events), drawn afresh for every request from a seeded generator, so
// that no cache of answers to a repeated URL could help and every run asks the same sequence.

const CHAMBER_FILTERS = ['', 'filter[type]=hq&', 'filter[type]=subsidiary&', 'filter[status]=active&', 'filter[status]=pending&', 'filter[type]=subsidiary&filter[status]=active&'];
const CHAMBER_SORTS = ['name', '-name', 'created_at', '-created_at'];
const MEMBER_FILTERS = ['', 'filter[status]=active&', 'filter[status]=pending&'];
const MEMBER_SORTS = ['name', '-name', 'joined_at', '-joined_at'];
/** The flagship's 1,000 events: each filter with the pages it has (about). */
const EVENT_FILTERS: [string, number][] = [
  ['', 50],
  ['filter[status]=upcoming&', 24],
  ['filter[status]=past&', 22],
  ['filter[status]=canceled&', 3],
  ['filter[date_from]=2026-01-01&filter[date_to]=2026-12-31&', 20],
];
const PAGES = 100;

export type ListName = 'chambers' | 'members' | 'events';

/** A path generator per list, each from a generator of its own with the same seed. */
export function listPaths(flagship: string): Record<ListName, () => string> {
  const { random, pick } = seededRandom();
  return {
    chambers: () => `/v2/chambers?${pick(CHAMBER_FILTERS)}sort=${pick(CHAMBER_SORTS)}&page=${1 + random(PAGES)}`,
    members: () => `/v2/chambers/${flagship}/members?${pick(MEMBER_FILTERS)}sort=${pick(MEMBER_SORTS)}&page=${1 + random(PAGES)}`,
    events: () => {
      const [filter, pages] = pick(EVENT_FILTERS);
      return `/v2/chambers/${flagship}/events?${filter}page=${1 + random(pages)}`;
    },
  };
}

/**
 * Every chambers and members page the generators can ask for, in order. Read once each before
 * the measurements, they leave every instance (serve, its floor, each build) with the same
 * page boundaries learnt (src/storage/page-boundaries.ts), so that each then reads every page by
 * the same seek: an instance that has served more requests would otherwise have learnt more
 * of them and read fewer pages with OFFSET (on PostgreSQL several times the database work).
 */
export function everyListPage(flagship: string): string[] {
  const paths: string[] = [];
  for (const filter of CHAMBER_FILTERS) for (const sort of CHAMBER_SORTS) for (let p = 1; p <= PAGES; p++) paths.push(`/v2/chambers?${filter}sort=${sort}&page=${p}`);
  for (const filter of MEMBER_FILTERS) for (const sort of MEMBER_SORTS) for (let p = 1; p <= PAGES; p++) paths.push(`/v2/chambers/${flagship}/members?${filter}sort=${sort}&page=${p}`);
  for (const [filter, pages] of EVENT_FILTERS) for (let p = 1; p <= pages; p++) paths.push(`/v2/chambers/${flagship}/events?${filter}page=${p}`);
  return paths;
}

/** Reads everyListPage once on the server at `base`, 10 at a time (every page, whatever the order); how many requests that took. */
export async function readEveryListPage(base: string, headers: Record<string, string>, flagship: string): Promise<number> {
  const { default: autocannon } = await import('autocannon');
  const paths = everyListPage(flagship);
  let i = 0;
  const r = await autocannon({ url: base, connections: 10, amount: paths.length, headers, requests: [{ setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length]! }) }] });
  if (r.errors || r.timeouts || r.non2xx) throw new Error(`reading every list page of ${base}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`);
  return paths.length;
}
