import * as z from 'zod/mini';
import {
  CHAMBER_INCLUDES,
  CHAMBER_SORT_FIELDS,
  ChamberStatus,
  ChamberType,
  EventStatus,
  MEMBER_SORT_FIELDS,
  MemberStatus,
  oneOf,
  sortValues,
} from './enums.js';

export const PER_PAGE_DEFAULT = 20;
export const PER_PAGE_MAX = 100;
/** `include=` embeds at most this many members and this many events (the first of each list). */
export const INCLUDE_LIMIT = 100;

// Query values arrive as strings; these schemas parse them, for the server on the wire and
// for the client on its option values, so both reject the same things with the same words.
//
// Each parameter is read in up to three steps: its text decoded (digits to a number, a
// comma-separated list to an array), the typed value checked, then turned into what the code
// uses (a sort field and direction, a UTC instant). The OpenAPI documents describe the middle
// step, the typed value (an integer of at least 1, one of the sort values, ...), as OpenAPI
// describes a query parameter: so every rule of that step is in the documents by construction.

/** How a parameter's typed value is written in a query (OpenAPI `style`, `explode`). */
export interface QueryParamInfo {
  typed: z.ZodMiniType;
  /** An array written as one comma-separated value (`include=members,events`). */
  commaSeparated?: boolean;
}

const PARAMS = new WeakMap<z.ZodMiniType, QueryParamInfo>();

/** The typed value a query parameter's parser checks (undefined for a plain string schema). */
export function queryParamInfo(parser: z.ZodMiniType): QueryParamInfo | undefined {
  return PARAMS.get(parser);
}

function queryParam<const D extends z.core.SomeType, T extends z.core.$ZodType<unknown, z.output<D>>>(
  decode: D,
  typed: T,
  info: Omit<QueryParamInfo, 'typed'> = {},
) {
  const parser = z.pipe(decode, typed);
  PARAMS.set(parser, { typed: typed as unknown as z.ZodMiniType, ...info });
  return parser;
}

/** Then: the typed value turned into what the code uses. */
function thenTransform<const S extends z.core.SomeType, O>(parser: S, after: (value: z.output<S>) => O) {
  const out = z.pipe(parser, z.transform(after));
  PARAMS.set(out, PARAMS.get(parser as unknown as z.ZodMiniType)!);
  return out;
}

const POSITIVE = 'must be a positive integer';
const digits = z.string().check(z.regex(/^\d+$/, POSITIVE));

export const PageParam = queryParam(
  z.pipe(digits, z.transform(Number)),
  z.int({ error: 'is too large' }).check(z.gte(1, POSITIVE), z.lte(Number.MAX_SAFE_INTEGER, 'is too large')),
);

/**
 * per_page: 1 to 100 (the interface document's maximum), or above it, however large, which is
 * clamped to 100 (docs/server-behaviour.md#paging). The typed value is one of the two, so the
 * documents say both: `maximum: 100`, and that a larger value is valid and taken as 100.
 */
export const PerPageParam = thenTransform(
  queryParam(
    // digits past any integer's precision still mean "more than the maximum"
    z.pipe(digits, z.transform((s: string) => (s.replace(/^0+/, '').length > 15 ? Number.MAX_SAFE_INTEGER : Number(s)))),
    z.union(
      [
        z.int().check(z.gte(1), z.lte(PER_PAGE_MAX)),
        z.int().check(
          z.gt(PER_PAGE_MAX),
          z.describe(`Above ${PER_PAGE_MAX}, however large: taken as ${PER_PAGE_MAX} (\`meta.per_page\` says ${PER_PAGE_MAX}).`),
          // however large: the decoding above has made any longer number of digits the
          // largest safe integer, so the value sent has no maximum (the bound z.int() implies)
          z.meta({ maximum: undefined }),
        ),
      ],
      { error: POSITIVE },
    ),
  ),
  (n: number) => Math.min(n, PER_PAGE_MAX),
);

export interface Sort<F extends string> {
  field: F;
  desc: boolean;
}

export function sortParam<const F extends string>(fields: readonly F[]) {
  const values = sortValues(fields);
  return thenTransform(
    queryParam(z.string(), z.enum(values, { error: oneOf(values) })),
    (s: string): Sort<F> => ({ field: s.replace(/^-/, '') as F, desc: s.startsWith('-') }),
  );
}

/** An ISO 8601 date (YYYY-MM-DD) or date-time with Z or an offset; normalised to UTC. */
export function dateParam(edge: 'start' | 'end') {
  return thenTransform(
    queryParam(
      z.string(),
      z.union([IsoDate, IsoDateTime], { error: 'must be an ISO 8601 date (2026-01-31) or date-time (2026-01-31T09:00:00Z)' }).check(
        // Kept within 0000-9999 in UTC so the text compares as the instant does
        // (9999-12-31T23:59:59-23:59 would be +010000-…, which sorts before 2025).
        z.refine((s) => s.length === 10 || !isIsoDateOrDateTime(s) || inFourDigitYears(new Date(s)), 'must fall between the years 0000 and 9999 in UTC'),
      ),
    ),
    // A bare date means the whole day: from its first instant, or to its last.
    (s: string) => (s.length === 10 ? `${s}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}Z` : new Date(s).toISOString()),
  );
}

const IsoDate = z.iso.date();
const IsoDateTime = z.iso.datetime({ offset: true });
const isIsoDateOrDateTime = (s: string) => IsoDate.safeParse(s).success || IsoDateTime.safeParse(s).success;
const inFourDigitYears = (at: Date) => at.getUTCFullYear() >= 0 && at.getUTCFullYear() <= 9999;

export const IncludeParam = thenTransform(
  queryParam(
    z.pipe(z.string(), z.transform((s: string) => s.split(',').map((x) => x.trim()).filter(Boolean))),
    z.array(z.enum(CHAMBER_INCLUDES, { error: `must be a comma-separated list of: ${CHAMBER_INCLUDES.join(', ')}` })),
    { commaSeparated: true },
  ),
  (xs) => [...new Set(xs)],
);

/** The paging parameters every list shares (contract/plain-list-query.ts reads them by hand). */
export const paging = {
  page: z._default(z.optional(PageParam), 1),
  per_page: z._default(z.optional(PerPageParam), PER_PAGE_DEFAULT),
};

/** v1 lists: paging only; every other parameter is ignored. */
export const ListQueryV1 = z.object(paging);

export const ChambersQueryV2 = z.object({
  ...paging,
  'filter[type]': z.optional(ChamberType),
  'filter[status]': z.optional(ChamberStatus),
  sort: z.optional(sortParam(CHAMBER_SORT_FIELDS)),
});

export const ChamberGetQueryV2 = z.object({ include: z.optional(IncludeParam) });

export const MembersQueryV2 = z.object({
  ...paging,
  'filter[status]': z.optional(MemberStatus),
  sort: z.optional(sortParam(MEMBER_SORT_FIELDS)),
});

export const EventsQueryV2 = z
  .object({
    ...paging,
    'filter[status]': z.optional(EventStatus),
    'filter[date_from]': z.optional(dateParam('start')),
    'filter[date_to]': z.optional(dateParam('end')),
  })
  .check(
    z.superRefine((q, ctx) => {
      const from = q['filter[date_from]'];
      const to = q['filter[date_to]'];
      if (from && to && from > to) {
        ctx.addIssue({ code: 'custom', path: ['filter[date_from]'], message: 'must not be after filter[date_to]', input: q });
      }
      // only once both dates are valid: an invalid one is still the text that was sent
    }, { when: (payload) => payload.issues.length === 0 }),
  );

export type ChambersQueryV2 = z.output<typeof ChambersQueryV2>;
export type MembersQueryV2 = z.output<typeof MembersQueryV2>;
export type EventsQueryV2 = z.output<typeof EventsQueryV2>;
