import * as z from 'zod/mini';
import { COUNTRY_CODES } from './countries.js';
import { INCLUDE_LIMIT } from './queries.js';
import { HOLDS_NUL, isWellFormed, NO_NUL, NOT_WELL_FORMED } from './text.js';
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
    .check(
      z.refine(isWellFormed, NOT_WELL_FORMED),
      z.regex(NO_NUL, HOLDS_NUL),
      z.trim(),
      z.minLength(1, 'must not be empty'),
      z.regex(/\S/, 'must not be empty'), // (for the OpenAPI documents: spaces alone are empty once trimmed)
      z.maxLength(max, `must be at most ${max} characters`),
    );
}

/** An optional string that may also be sent as null; empty means absent. */
function optionalText(max: number) {
  return z.pipe(
    z.nullish(z.string({ error: 'must be a string or null' }).check(z.refine(isWellFormed, NOT_WELL_FORMED), z.regex(NO_NUL, HOLDS_NUL), z.trim(), z.maxLength(max, `must be at most ${max} characters`))),
    z.transform((v: string | null | undefined) => (v ? v : null)),
  );
}

const COUNTRY_MESSAGE = 'must be an ISO 3166-1 alpha-2 country code, e.g. DE';
const EMAIL_MESSAGE = 'must be a valid e-mail address';

// What a request's text becomes and what a returned record holds are the same rules, made here
// once for both sides (a request's schema reads the text first, trimmed, in any case):

/**
 * An e-mail address (zod's `z.email()`: `format: email` and its pattern in the documents);
 * a value that is no string at all gets the message of its reader (`is required`, ...).
 */
const emailAddress = () => z.email({ error: (iss) => (iss.code === 'invalid_type' ? undefined : EMAIL_MESSAGE) });
/** A country as stored and returned: two letters, upper case (the input is upper-cased first). */
const storedCountry = () => z.string().check(z.regex(/^[A-Z]{2}$/, COUNTRY_MESSAGE));

export const CountryCode = z
  .string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a string') })
  .check(
    z.trim(),
    z.regex(/^[A-Za-z]{2}$/, COUNTRY_MESSAGE),
    z.toUpperCase(),
    z.refine((v) => COUNTRY_CODES.has(v), COUNTRY_MESSAGE),
    z.describe('An officially assigned ISO 3166-1 alpha-2 code (249 of them: `EU`, `XK`, `ZZ` are refused), in any case; stored upper case.'),
    z.meta({ examples: ['DE'] }),
  );

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
      z.string({ error: 'must be a string or null' }).check(z.refine(isWellFormed, NOT_WELL_FORMED), z.regex(NO_NUL, HOLDS_NUL), z.trim(), z.maxLength(64, 'is not a known chamber id')),
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
    // The same rule for the OpenAPI documents, which cannot read the function above.
    z.meta({
      if: { properties: { type: { const: 'subsidiary' } }, required: ['type'] },
      then: { properties: { hq_id: { type: 'string', pattern: '\\S' } }, required: ['hq_id'] },
      else: { properties: { hq_id: { type: 'null' } } },
    }),
  );
export type ChamberCreate = z.output<typeof ChamberCreate>;

export const Email = z.pipe(
  z
    .string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a string') })
    .check(z.refine(isWellFormed, NOT_WELL_FORMED), z.regex(NO_NUL, HOLDS_NUL), z.trim(), z.maxLength(254, 'must be at most 254 characters')),
  emailAddress(),
);

export const Phone = z.pipe(
  z.nullish(
    z
      .string({ error: 'must be a string or null' })
      .check(
        z.refine(isWellFormed, NOT_WELL_FORMED), z.regex(NO_NUL, HOLDS_NUL),
        z.trim(),
        z.maxLength(40, 'must be at most 40 characters'),
        z.regex(/^(?:\+?[0-9][0-9 ().\-/]*)?$/, 'must be a phone number (digits, spaces, + ( ) . - /)'),
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

// Returned records may carry fields this project does not know: a copy made by `sync pull` serves
// every field the remote returned (docs/guides/working-offline.md#what-sync-pull-copies), so the documents leave them open.
// The fields this project knows hold what the server guarantees: the same schemas check a
// snapshot's records before they are loaded and a remote's answers (so `sync pull`) before they are
// used, so nothing that breaks them reaches the database a server serves.
const open = z.meta({ additionalProperties: true });
const instant = () => z.string().check(z.describe('ISO 8601, UTC'), z.meta({ format: 'date-time' }));

export const Address = z
  .object({
    street: z.string(),
    city: z.string(),
    postal_code: z.nullable(z.string()),
    country: storedCountry(),
  })
  .check(open);
export type Address = z.infer<typeof Address>;

export const Member = z
  .object({
    id: z.string(),
    chamber_id: z.string(),
    name: z.string(),
    email: emailAddress(),
    phone: z.nullable(z.string()),
    membership_type: MembershipType,
    status: MemberStatus,
    joined_at: instant(),
  })
  .check(open);
export type Member = z.infer<typeof Member>;

export const Event = z
  .object({
    id: z.string(),
    chamber_id: z.string(),
    title: z.string(),
    status: EventStatus,
    starts_at: instant(),
    ends_at: instant(),
    location: z.nullable(z.string()),
  })
  .check(open);
export type Event = z.infer<typeof Event>;

const chamberFields = {
  id: z.string(),
  name: z.string(),
  type: ChamberType,
  hq_id: z.nullable(z.string()),
  status: ChamberStatus,
  address: Address,
  created_at: instant(),
};

/** A chamber as lists, `POST /v2/chambers` and v1 return it. */
export const ChamberRecord = z.object(chamberFields).check(open);

/** A chamber as `GET /v2/chambers/{id}` returns it: with `include=`, its first members and events. */
export const Chamber = z
  .object({
    ...chamberFields,
    members: z.optional(z.array(Member).check(z.maxLength(INCLUDE_LIMIT))).check(z.describe(`With include=members: the chamber's first ${INCLUDE_LIMIT} members, in the members list's default order`)),
    events: z.optional(z.array(Event).check(z.maxLength(INCLUDE_LIMIT))).check(z.describe(`With include=events: the chamber's first ${INCLUDE_LIMIT} events, in the events list's default order`)),
  })
  .check(open);
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
