import * as z from 'zod/mini';
import { COUNTRY_CODES } from './countries.js';
import { hasNoNul, HOLDS_NUL, isWellFormed, NOT_WELL_FORMED } from './text.js';
import {
  ChamberStatus,
  ChamberType,
  EventStatus,
  MemberStatus,
  MembershipType,
} from './enums.js';

/** A required, trimmed, non-empty string of at most `max` characters. */
function requiredText(max: number) {
  return z
    .string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a string') })
    .check(z.refine(isWellFormed, NOT_WELL_FORMED), z.refine(hasNoNul, HOLDS_NUL), z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(max, `must be at most ${max} characters`));
}

/** An optional string that may also be sent as null; empty means absent. */
function optionalText(max: number) {
  return z.pipe(
    z.nullish(z.string({ error: 'must be a string or null' }).check(z.refine(isWellFormed, NOT_WELL_FORMED), z.refine(hasNoNul, HOLDS_NUL), z.trim(), z.maxLength(max, `must be at most ${max} characters`))),
    z.transform((v: string | null | undefined) => (v ? v : null)),
  );
}

export const CountryCode = z
  .string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a string') })
  .check(z.trim(), z.toUpperCase(), z.refine((v) => COUNTRY_CODES.has(v), 'must be an ISO 3166-1 alpha-2 country code, e.g. DE'));

// ---------------------------------------------------------------- payloads (v2 writes)

export const AddressInput = z.object(
  {
    street: requiredText(200),
    city: requiredText(100),
    postal_code: optionalText(20),
    country: CountryCode,
  },
  { error: (iss) => (iss.input === undefined ? 'is required' : 'must be an object') },
);

/**
 * POST /v2/chambers. The rule that `hq_id` names an existing HQ needs the database, so the
 * server checks it after this schema; the shape rules (required for a subsidiary, absent for
 * an HQ) live here so the client can check them before sending.
 */
export const ChamberCreate = z
  .object({
    name: requiredText(200),
    type: z.enum(ChamberType.options, {
      error: (iss) => (iss.input === undefined ? 'is required' : 'must be one of: hq, subsidiary'),
    }),
    hq_id: z.nullish(
      z.string({ error: 'must be a string or null' }).check(z.refine(isWellFormed, NOT_WELL_FORMED), z.refine(hasNoNul, HOLDS_NUL), z.trim(), z.maxLength(64, 'is not a known chamber id')),
    ),
    address: AddressInput,
  })
  .check(
    z.superRefine(
    (v, ctx) => {
      // Runs even when other fields failed (so every failing field is reported at once):
      // `v` may then be only partly valid, hence the loose reads.
      const { type, hq_id } = v as { type?: unknown; hq_id?: unknown };
      if (type === 'subsidiary' && (hq_id === undefined || hq_id === null || hq_id === '')) {
        ctx.addIssue({ code: 'custom', path: ['hq_id'], message: 'is required for a subsidiary' });
      }
      if (type === 'hq' && hq_id !== undefined && hq_id !== null && hq_id !== '') {
        ctx.addIssue({ code: 'custom', path: ['hq_id'], message: 'must be absent or null for an hq' });
      }
    },
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
    ),
  );
export type ChamberCreate = z.output<typeof ChamberCreate>;

export const Email = z.pipe(
  z
    .string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a string') })
    .check(z.refine(isWellFormed, NOT_WELL_FORMED), z.refine(hasNoNul, HOLDS_NUL), z.trim(), z.maxLength(254, 'must be at most 254 characters')),
  z.email({ error: 'must be a valid e-mail address' }),
);

export const Phone = z.pipe(
  z.nullish(
    z
      .string({ error: 'must be a string or null' })
      .check(
        z.refine(isWellFormed, NOT_WELL_FORMED), z.refine(hasNoNul, HOLDS_NUL),
        z.trim(),
        z.maxLength(40, 'must be at most 40 characters'),
        z.refine((v) => v === '' || /^\+?[0-9][0-9 ().\-/]*$/.test(v), 'must be a phone number (digits, spaces, + ( ) . - /)'),
      ),
  ),
  z.transform((v: string | null | undefined) => (v ? v : null)),
);

/** POST /v2/chambers/{chamber_id}/members. */
export const MemberCreate = z.object({
  name: requiredText(200),
  email: Email,
  phone: Phone,
  membership_type: z.enum(MembershipType.options, {
    error: (iss) =>
      iss.input === undefined ? 'is required' : `must be one of: ${MembershipType.options.join(', ')}`,
  }),
});
export type MemberCreate = z.output<typeof MemberCreate>;

// ---------------------------------------------------------------- resources as returned

export const Address = z.object({
  street: z.string(),
  city: z.string(),
  postal_code: z.nullable(z.string()),
  country: z.string().check(z.length(2)),
});
export type Address = z.infer<typeof Address>;

export const Member = z.object({
  id: z.string(),
  chamber_id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.nullable(z.string()),
  membership_type: MembershipType,
  status: MemberStatus,
  joined_at: z.string().check(z.describe('ISO 8601, UTC')),
});
export type Member = z.infer<typeof Member>;

export const Event = z.object({
  id: z.string(),
  chamber_id: z.string(),
  title: z.string(),
  status: EventStatus,
  starts_at: z.string().check(z.describe('ISO 8601, UTC')),
  ends_at: z.string().check(z.describe('ISO 8601, UTC')),
  location: z.nullable(z.string()),
});
export type Event = z.infer<typeof Event>;

export const Chamber = z.object({
  id: z.string(),
  name: z.string(),
  type: ChamberType,
  hq_id: z.nullable(z.string()),
  status: ChamberStatus,
  address: Address,
  created_at: z.string().check(z.describe('ISO 8601, UTC')),
  members: z.optional(z.array(Member)).check(z.describe('present with include=members (v2)')),
  events: z.optional(z.array(Event)).check(z.describe('present with include=events (v2)')),
});
export type Chamber = z.infer<typeof Chamber>;

export const ListMeta = z.object({
  current_page: z.int(),
  total: z.int(),
  per_page: z.int(),
});
export type ListMeta = z.infer<typeof ListMeta>;

export function listEnvelope<T extends z.ZodMiniType>(item: T) {
  return z.object({ data: z.array(item), meta: ListMeta });
}
export interface ListPage<T> {
  data: T[];
  meta: ListMeta;
}
