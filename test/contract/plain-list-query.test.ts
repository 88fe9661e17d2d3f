import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ChambersQueryV2, EventsQueryV2, ListQueryV1, MembersQueryV2, parseQuery, queryParamInfo } from '../../src/contract/index.js';
import { plainListQuery, plainListRule } from '../../src/contract/plain-list-query.js';

// The plain form of a list's query is read without zod (src/contract/plain-list-query.ts); for
// every query it reads, it must give exactly what the schema gives, as the server reads it
// (server/routes/query.ts: v2 with strictFilters, v1 without). The queries are made from the
// schemas' own keys and allowed values (so a new filter or sort value is tried at once), and
// from forms that are near them but not plain.

const SCHEMAS: [string, z.ZodMiniObject, boolean][] = [
  ['v1 lists', ListQueryV1, false],
  ['v2 chambers', ChambersQueryV2, true],
  ['v2 members', MembersQueryV2, true],
  ['v2 events', EventsQueryV2, true],
];

type Def = { type: string; innerType?: z.core.$ZodType; entries?: Record<string, string> };
/** The allowed values of a query field (an enum, or a sort's enum behind its parser), if any. */
function allowedValues(field: unknown): string[] {
  let schema = field as z.core.$ZodType;
  for (let d = schema._zod.def as Def; d.type === 'optional' || d.type === 'default'; d = schema._zod.def as Def) schema = d.innerType!;
  const typed = (queryParamInfo(schema as z.ZodMiniType)?.typed ?? schema)._zod.def as Def;
  return typed.type === 'enum' ? Object.values(typed.entries!) : [];
}
const FROM_SCHEMAS = SCHEMAS.flatMap(([, schema]) => Object.values(schema.shape).flatMap(allowedValues));
const VALUES = [
  ...new Set(FROM_SCHEMAS),
  ...FROM_SCHEMAS.map((v) => v.toUpperCase()),
  ...FROM_SCHEMAS.map((v) => `-${v}`),
  '1', '2', '37', '100', '101', '99999', '999999999999999', '9999999999999999', '0', '00', '01', '007', '-1', '+1', '1.5', '1e3', ' 1', '1 ', '',
  '2026-01-01', 'a\u0000b', 'toString', '__proto__',
];
const KEYS = [...new Set(SCHEMAS.flatMap(([, schema]) => Object.keys(schema.shape))), 'filter[name]', 'include', 'q', '__proto__', 'constructor'];

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

describe('the plain form of a list query', () => {
  for (const [name, schema, strictFilters] of SCHEMAS) {
    it(`${name}: whatever it reads, it reads as the schema does`, () => {
      const rule = plainListRule(schema);
      // a rule across fields (events: from before to) leaves the whole query to the schema
      if (schema._zod.def.checks?.length) return expect(rule).toBeUndefined();
      if (!rule) throw new Error(`${name} has no plain form`);
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
    expect(plainListRule(EventsQueryV2)).toBeUndefined();
  });

  it('follows the schema: a new filter or sort value is read, a rule across fields defers to zod', () => {
    const more = z.object({ ...ChambersQueryV2.shape, 'filter[size]': z.optional(z.enum(['small', 'large'])) });
    expect(plainListQuery({ 'filter[size]': 'large', sort: '-name' }, plainListRule(more)!)).toStrictEqual({ page: 1, per_page: 20, 'filter[size]': 'large', sort: { field: 'name', desc: true } });
    const ruled = ChambersQueryV2.check(z.refine((q) => !(q['filter[type]'] === 'hq' && q['filter[status]'] === 'pending'), 'no pending HQs'));
    expect(plainListRule(ruled)).toBeUndefined();
    expect(parseQuery(ruled, { 'filter[type]': 'hq', 'filter[status]': 'pending' }, { strictFilters: true })).toMatchObject({ ok: false });
  });
});
