import * as z from 'zod/mini';
import {
  CHAMBER_INCLUDES,
  CHAMBER_SORT_FIELDS,
  ChamberStatus,
  ChamberType,
  EventStatus,
  MEMBER_SORT_FIELDS,
  MemberStatus,
} from './enums.js';

export const PER_PAGE_DEFAULT = 20;
export const PER_PAGE_MAX = 100;

// Query values arrive as strings; these schemas parse them, for the server on the wire and
// for the client on its option values, so both reject the same things with the same words.

export const PageParam = z
  .pipe(z.string().check(z.regex(/^\d+$/, 'must be a positive integer')), z.transform(Number))
  .check(
    z.refine((n: number) => n >= 1, 'must be a positive integer'),
    z.refine((n: number) => Number.isSafeInteger(n), 'is too large'),
  );

/** per_page above the maximum is clamped to it (decisions.md), however large. */
export const PerPageParam = z.pipe(
  z.string().check(z.regex(/^\d+$/, 'must be a positive integer'), z.refine((s) => /[1-9]/.test(s), 'must be a positive integer')),
  z.transform((s: string) => (s.replace(/^0+/, '').length > 3 ? PER_PAGE_MAX : Math.min(Number(s), PER_PAGE_MAX))),
);

export interface Sort<F extends string> {
  field: F;
  desc: boolean;
}

export function sortParam<const F extends string>(fields: readonly F[]) {
  const allowed = fields.flatMap((f) => [f, `-${f}`]).join(', ');
  return z.pipe(
    z.string().check(z.refine((s) => (fields as readonly string[]).includes(s.replace(/^-/, '')), `must be one of: ${allowed}`)),
    z.transform((s: string): Sort<F> => ({ field: s.replace(/^-/, '') as F, desc: s.startsWith('-') })),
  );
}

/** An ISO 8601 date (YYYY-MM-DD) or date-time with Z or an offset; normalised to UTC. */
export function dateParam(edge: 'start' | 'end') {
  return z.pipe(
    z.string().check(
      z.refine(isIsoDateOrDateTime, 'must be an ISO 8601 date (2026-01-31) or date-time (2026-01-31T09:00:00Z)'),
      // Kept within 0000-9999 in UTC so the text compares as the instant does
      // (9999-12-31T23:59:59-23:59 would be +010000-…, which sorts before 2025).
      z.refine((s) => s.length === 10 || !isIsoDateOrDateTime(s) || inFourDigitYears(new Date(s)), 'must fall between the years 0000 and 9999 in UTC'),
    ),
    // A bare date means the whole day: from its first instant, or to its last.
    z.transform((s: string) => (s.length === 10 ? `${s}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}Z` : new Date(s).toISOString())),
  );
}

const IsoDate = z.iso.date();
const IsoDateTime = z.iso.datetime({ offset: true });
const isIsoDateOrDateTime = (s: string) => IsoDate.safeParse(s).success || IsoDateTime.safeParse(s).success;
const inFourDigitYears = (at: Date) => at.getUTCFullYear() >= 0 && at.getUTCFullYear() <= 9999;

export const IncludeParam = z.pipe(
  z
    .pipe(
      z.string(),
      z.transform((s: string) => s.split(',').map((x) => x.trim()).filter(Boolean)),
    )
    .check(
      z.refine(
        (xs: string[]) => xs.every((x) => (CHAMBER_INCLUDES as readonly string[]).includes(x)),
        `must be a comma-separated list of: ${CHAMBER_INCLUDES.join(', ')}`,
      ),
    ),
  z.transform((xs: string[]) => [...new Set(xs)] as (typeof CHAMBER_INCLUDES)[number][]),
);

const paging = {
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
