import type * as z from 'zod/mini';
import { paging, PER_PAGE_DEFAULT, PER_PAGE_MAX, queryParamInfo, type Sort } from './queries.js';

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

/**
 * The plain form of a list's query, read off its schema once: the filters whose values are a
 * plain list (an enum), and the sort values. A filter of another kind (a date) is left to the
 * schema; a schema with a rule across its fields (a check on the object, as events' dates
 * have) or paging of its own has no plain form, so a rule added there is never skipped.
 */
function ruleOf(schema: z.ZodMiniObject): PlainListRule | undefined {
  if ((schema._zod.def.checks ?? []).length > 0) return undefined;
  const filters: Record<string, readonly string[]> = {};
  let sorts: readonly string[] = [];
  for (const [key, field] of Object.entries(schema.shape)) {
    if (key === 'page' || key === 'per_page') {
      if (field !== paging[key]) return undefined;
      continue;
    }
    const parser = withoutOptional(field as z.core.$ZodType);
    const values = enumValues(key === 'sort' ? queryParamInfo(parser as z.ZodMiniType)?.typed : parser);
    if (key === 'sort') {
      if (!values) return undefined;
      sorts = values;
    } else if (values) filters[key] = values;
  }
  return { filters, sorts };
}

/** The parser inside `optional`. */
function withoutOptional(field: z.core.$ZodType): z.core.$ZodType {
  const def = field._zod.def as { type: string; innerType?: z.core.$ZodType };
  return def.type === 'optional' ? def.innerType! : field;
}

/** The values of an enum schema (z.enum), else undefined. */
function enumValues(schema: z.core.$ZodType | undefined): readonly string[] | undefined {
  const def = schema?._zod.def as { type: string; entries?: Record<string, string> } | undefined;
  return def?.type === 'enum' ? Object.values(def.entries!) : undefined;
}

const RULES = new WeakMap<z.ZodMiniObject, PlainListRule | null>();

/** The rule of a list's query schema, if it has a plain form. */
export function plainListRule(schema: z.ZodMiniObject): PlainListRule | undefined {
  let rule = RULES.get(schema);
  if (rule === undefined) RULES.set(schema, (rule = ruleOf(schema) ?? null));
  return rule ?? undefined;
}

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
