import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { ChambersQueryV2, EventsQueryV2, ListQueryV1, MembersQueryV2, parseQuery } from '../../src/contract/index.js';
import { plainListQuery, plainListRule } from '../../src/contract/plain-list-query.js';

// The plain form of a list's query is read without zod (src/contract/plain-list-query.ts); for
// every query it reads, it must give exactly what the schema gives, as the server reads it
// (server/routes/query.ts: v2 with strictFilters, v1 without).

const VALUES = [
  '1', '2', '37', '100', '101', '99999', '999999999999999', '9999999999999999', '0', '00', '01', '007', '-1', '+1', '1.5', '1e3', ' 1', '1 ', '',
  'hq', 'subsidiary', 'HQ', 'active', 'inactive', 'pending', 'Active', 'upcoming', 'past', 'canceled',
  'name', '-name', 'created_at', '-created_at', 'joined_at', '-joined_at', '--name', 'Name', 'starts_at',
  '2026-01-01', 'a\u0000b', 'toString', '__proto__',
];
const KEYS = ['page', 'per_page', 'sort', 'filter[type]', 'filter[status]', 'filter[date_from]', 'filter[date_to]', 'filter[name]', 'include', 'q', '__proto__', 'constructor'];

/** A seeded generator: the same queries every run. */
function generator(seed = 12345) {
  let state = seed;
  return (n: number) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
}

function randomQuery(random: (n: number) => number): Record<string, unknown> {
  const raw: Record<string, unknown> = Object.create(null);
  for (let i = random(5); i > 0; i--) {
    const key = KEYS[random(KEYS.length)]!;
    raw[key] = random(12) === 0 ? [VALUES[random(VALUES.length)]!, VALUES[random(VALUES.length)]!] : VALUES[random(VALUES.length)]!;
  }
  return raw;
}

const SCHEMAS: [string, z.ZodMiniObject, boolean][] = [
  ['v1 lists', ListQueryV1, false],
  ['v2 chambers', ChambersQueryV2, true],
  ['v2 members', MembersQueryV2, true],
  ['v2 events', EventsQueryV2, true],
];

describe('the plain form of a list query', () => {
  for (const [name, schema, strictFilters] of SCHEMAS) {
    it(`${name}: whatever it reads, it reads as the schema does`, () => {
      const rule = plainListRule(schema)!;
      const random = generator();
      let read = 0;
      for (let i = 0; i < 20_000; i++) {
        const raw = randomQuery(random);
        const plain = plainListQuery(raw, rule);
        if (plain === undefined) continue;
        read++;
        const parsed = parseQuery(schema, raw, { strictFilters });
        expect(parsed, JSON.stringify(raw)).toMatchObject({ ok: true });
        expect(plain, JSON.stringify(raw)).toStrictEqual({ ...(parsed as { value: object }).value });
      }
      expect(read).toBeGreaterThan(500);
    });
  }

  it('reads the queries lists are usually asked with', () => {
    const cases: [z.ZodMiniObject, Record<string, string>][] = [
      [ChambersQueryV2, {}],
      [ChambersQueryV2, { 'filter[status]': 'active', sort: '-name', page: '37' }],
      [ChambersQueryV2, { 'filter[type]': 'subsidiary', 'filter[status]': 'pending', sort: 'created_at', page: '2', per_page: '100' }],
      [MembersQueryV2, { 'filter[status]': 'active', sort: 'joined_at', page: '100', per_page: '250' }],
      [EventsQueryV2, { 'filter[status]': 'upcoming', page: '3' }],
      [ListQueryV1, { page: '4', per_page: '5' }],
    ];
    for (const [schema, raw] of cases) {
      const plain = plainListQuery(raw, plainListRule(schema)!);
      expect(plain, JSON.stringify(raw)).toBeDefined();
      expect(plain).toStrictEqual({ ...(parseQuery(schema, raw, { strictFilters: schema !== ListQueryV1 }) as { value: object }).value });
    }
  });

  it('leaves to the schema what it does not read: another parameter, a parameter twice, a leading zero, a value not allowed, a date', () => {
    const rule = plainListRule(ChambersQueryV2)!;
    for (const raw of [{ q: 'x' }, { page: ['1', '2'] }, { page: '01' }, { per_page: '0' }, { sort: 'joined_at' }, { 'filter[status]': 'Active' }, { 'filter[name]': 'x' }]) {
      expect(plainListQuery(raw, rule), JSON.stringify(raw)).toBeUndefined();
    }
    expect(plainListQuery({ 'filter[date_from]': '2026-01-01' }, plainListRule(EventsQueryV2)!)).toBeUndefined();
  });
});
