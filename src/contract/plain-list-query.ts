import type * as z from 'zod/mini';
import { CHAMBER_SORTS, CHAMBER_STATUSES, CHAMBER_TYPES, EVENT_STATUSES, MEMBER_SORTS, MEMBER_STATUSES } from './values.js';
import { ChambersQueryV2, EventsQueryV2, ListQueryV1, MembersQueryV2, PER_PAGE_DEFAULT, PER_PAGE_MAX, type Sort } from './queries.js';

// The usual list query, read without zod. zod's parse of a list's query string was ~11 µs of
// a chambers list request in `serve` (a CPU profile under varied lists, 2026-11-27,
// docs/performance.md), as much as the request log line. Nearly every request is in one plain
// form: a page and a page size written as plain numbers, a filter and a sort among their
// values. This reads exactly that form and nothing else: for anything else (another parameter,
// a parameter twice, a leading zero, a value not allowed) it answers undefined and the caller
// parses with the schema, which gives the same value for everything read here
// (test/contract/plain-list-query.test.ts compares the two) and the messages for the rest.

/** What a list's query may hold in the plain form: its filters' values and its sorts. */
export interface PlainListRule {
  filters: Record<string, readonly string[]>;
  sorts: readonly string[];
}

/** A positive number without a leading zero, at most 15 digits (below 2^53, so exact). */
const PLAIN_NUMBER = /^[1-9][0-9]{0,14}$/;

export interface PlainListQuery {
  page: number;
  per_page: number;
  sort?: Sort<string>;
  [filter: `filter[${string}]`]: string | undefined;
}

/** The plain form of each list's query: its filters' values and its sorts, from the values its schema allows. */
const RULES = new Map<z.ZodMiniObject, PlainListRule>([
  [ListQueryV1, { filters: {}, sorts: [] }],
  [ChambersQueryV2, { filters: { 'filter[type]': CHAMBER_TYPES, 'filter[status]': CHAMBER_STATUSES }, sorts: CHAMBER_SORTS }],
  [MembersQueryV2, { filters: { 'filter[status]': MEMBER_STATUSES }, sorts: MEMBER_SORTS }],
  // the dates are left to the schema (their forms, and from before to)
  [EventsQueryV2, { filters: { 'filter[status]': EVENT_STATUSES }, sorts: [] }],
]);

/** The rule of a list's query schema, if it has one. */
export const plainListRule = (schema: z.ZodMiniObject): PlainListRule | undefined => RULES.get(schema);

/** The query in the plain form as the schema would give it, or undefined for the schema to read. */
export function plainListQuery(raw: Record<string, unknown>, rule: PlainListRule): PlainListQuery | undefined {
  const q: PlainListQuery = { page: 1, per_page: PER_PAGE_DEFAULT };
  for (const key in raw) {
    const value = raw[key];
    if (typeof value !== 'string') return undefined;
    if (key === 'page' || key === 'per_page') {
      if (!PLAIN_NUMBER.test(value)) return undefined;
      q[key] = key === 'page' ? Number(value) : Math.min(Number(value), PER_PAGE_MAX);
    } else if (key === 'sort') {
      if (!rule.sorts.includes(value)) return undefined;
      q.sort = { field: value.startsWith('-') ? value.slice(1) : value, desc: value.startsWith('-') };
    } else {
      const allowed = Object.hasOwn(rule.filters, key) ? rule.filters[key] : undefined;
      if (!allowed?.includes(value)) return undefined;
      q[key as `filter[${string}]`] = value;
    }
  }
  return q;
}
