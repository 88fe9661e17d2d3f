import type { MembershipType, MemberStatus } from '../../contract/index.js';
import type { MemberRow } from '../rows.js';
import type { SeedChamber } from './chambers.js';
import type { Culture } from './places.js';
import type { Prng } from './prng.js';
import { between, DAY, MINUTE } from './time.js';
import { COMPANY_DOMAINS, GENERIC_DOMAINS, NAMES, slug } from './words.js';

const STATUS_WEIGHTS: [MemberStatus, number][] = [
  ['active', 85],
  ['inactive', 9],
  ['pending', 6],
];
const TYPE_WEIGHTS: [MembershipType, number][] = [
  ['standard', 55],
  ['premium', 22],
  ['corporate', 18],
  ['honorary', 5],
];

interface Person {
  name: string;
  slug: string;
}
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Names with their e-mail-ready slugs, worked out once rather than per member. */
const PEOPLE = Object.fromEntries(
  Object.entries(NAMES).map(([culture, { first, last }]) => [
    culture,
    {
      first: first.map((name): Person => ({ name, slug: slug(name) })),
      last: last.map((name): Person => ({ name, slug: slug(name) })),
    },
  ]),
) as Record<Culture, { first: Person[]; last: Person[] }>;
const CULTURES = Object.keys(PEOPLE) as Culture[];

/**
 * `count` members of one chamber, handed to `emit` one by one (the large size makes a
 * million, so they are not collected). E-mails are unique within the chamber ignoring
 * case; about one in ten is written with capitals ("Anna.Muller@…") to exercise that.
 */
export function generateMembers(
  prng: Prng,
  chamber: SeedChamber,
  count: number,
  nowMs: number,
  emit: (member: MemberRow, emailKey: string) => void,
): void {
  const taken = new Set<string>();
  const { createdMs } = chamber;
  const latest = nowMs - MINUTE;
  for (let i = 0; i < count; i++) {
    const people = PEOPLE[prng.chance(0.7) ? chamber.country.culture : prng.pick(CULTURES)];
    const first = prng.pick(people.first);
    const last = prng.pick(people.last);
    const status = prng.weighted(STATUS_WEIGHTS);

    let local: string;
    switch (prng.int(0, 4)) {
      case 0: local = `${first.slug}.${last.slug}`; break;
      case 1: local = `${first.slug.charAt(0)}.${last.slug}`; break;
      case 2: local = `${first.slug}${last.slug}`; break;
      case 3: local = `${first.slug}_${last.slug}`; break;
      default: local = `${last.slug}.${first.slug}`;
    }
    if (prng.chance(0.1)) local = `${capitalise(first.slug)}.${capitalise(last.slug)}`;
    const domain = prng.chance(0.65) ? prng.pick(COMPANY_DOMAINS) : prng.pick(GENERIC_DOMAINS);
    let email = `${local}@${domain}`;
    let key = email.toLowerCase();
    for (let n = 2; taken.has(key); n++) {
      email = `${local}${n}@${domain}`;
      key = email.toLowerCase();
    }
    taken.add(key);

    // Pending members applied recently; nobody joined before the chamber existed.
    const from = status === 'pending' ? Math.max(createdMs, nowMs - 30 * DAY) : createdMs;
    emit(
      {
        id: prng.id('mb'),
        chamber_id: chamber.row.id,
        name: `${first.name} ${last.name}`,
        email,
        phone: prng.chance(0.2) ? null : prng.pattern(chamber.country.phone),
        membership_type: prng.weighted(TYPE_WEIGHTS),
        status,
        joined_at: new Date(between(prng, from, latest)).toISOString(),
      },
      key,
    );
  }
}
