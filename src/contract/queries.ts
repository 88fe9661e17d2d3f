import { z } from 'zod';
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
  .string()
  .regex(/^\d+$/, 'must be a positive integer')
  .transform(Number)
  .refine((n) => n >= 1, 'must be a positive integer')
  .refine((n) => Number.isSafeInteger(n), 'is too large');

/** per_page above the maximum is clamped to it (decisions.md), however large. */
export const PerPageParam = z
  .string()
  .regex(/^\d+$/, 'must be a positive integer')
  .refine((s) => /[1-9]/.test(s), 'must be a positive integer')
  .transform((s) => (s.replace(/^0+/, '').length > 3 ? PER_PAGE_MAX : Math.min(Number(s), PER_PAGE_MAX)));

export interface Sort<F extends string> {
  field: F;
  desc: boolean;
}

export function sortParam<const F extends string>(fields: readonly F[]) {
  const allowed = fields.flatMap((f) => [f, `-${f}`]).join(', ');
  return z
    .string()
    .refine((s) => (fields as readonly string[]).includes(s.replace(/^-/, '')), `must be one of: ${allowed}`)
    .transform((s): Sort<F> => ({ field: s.replace(/^-/, '') as F, desc: s.startsWith('-') }));
}

/** An ISO 8601 date (YYYY-MM-DD) or date-time with Z or an offset; normalised to UTC. */
export function dateParam(edge: 'start' | 'end') {
  return z
    .string()
    .refine(
      (s) => z.iso.date().safeParse(s).success || z.iso.datetime({ offset: true }).safeParse(s).success,
      'must be an ISO 8601 date (2026-01-31) or date-time (2026-01-31T09:00:00Z)',
    )
    .transform((s, ctx) => {
      // A bare date means the whole day: from its first instant, or to its last.
      if (s.length === 10) return `${s}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}Z`;
      // Normalised to UTC, and kept within 0000-9999 so the text compares as the instant
      // does (9999-12-31T23:59:59-23:59 would be +010000-…, which sorts before 2025).
      const at = new Date(s);
      const year = at.getUTCFullYear();
      if (year < 0 || year > 9999) {
        ctx.addIssue({ code: 'custom', message: 'must fall between the years 0000 and 9999 in UTC', input: s });
        return z.NEVER;
      }
      return at.toISOString();
    });
}

export const IncludeParam = z
  .string()
  .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
  .refine(
    (xs) => xs.every((x) => (CHAMBER_INCLUDES as readonly string[]).includes(x)),
    `must be a comma-separated list of: ${CHAMBER_INCLUDES.join(', ')}`,
  )
  .transform((xs) => [...new Set(xs)] as (typeof CHAMBER_INCLUDES)[number][]);

const paging = {
  page: PageParam.optional().default(1),
  per_page: PerPageParam.optional().default(PER_PAGE_DEFAULT),
};

/** v1 lists: paging only; every other parameter is ignored. */
export const ListQueryV1 = z.object(paging);

export const ChambersQueryV2 = z.object({
  ...paging,
  'filter[type]': ChamberType.optional(),
  'filter[status]': ChamberStatus.optional(),
  sort: sortParam(CHAMBER_SORT_FIELDS).optional(),
});

export const ChamberGetQueryV2 = z.object({ include: IncludeParam.optional() });

export const MembersQueryV2 = z.object({
  ...paging,
  'filter[status]': MemberStatus.optional(),
  sort: sortParam(MEMBER_SORT_FIELDS).optional(),
});

export const EventsQueryV2 = z
  .object({
    ...paging,
    'filter[status]': EventStatus.optional(),
    'filter[date_from]': dateParam('start').optional(),
    'filter[date_to]': dateParam('end').optional(),
  })
  .superRefine((q, ctx) => {
    const from = q['filter[date_from]'];
    const to = q['filter[date_to]'];
    if (from && to && from > to) {
      ctx.addIssue({ code: 'custom', path: ['filter[date_from]'], message: 'must not be after filter[date_to]' });
    }
  });

export type ChambersQueryV2 = z.output<typeof ChambersQueryV2>;
export type MembersQueryV2 = z.output<typeof MembersQueryV2>;
export type EventsQueryV2 = z.output<typeof EventsQueryV2>;
