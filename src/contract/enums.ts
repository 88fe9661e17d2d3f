import * as z from 'zod/mini';

/** Values named by the interface document and decisions.md. */
export const CHAMBER_TYPES = ['hq', 'subsidiary'] as const;
export const CHAMBER_STATUSES = ['active', 'inactive', 'pending'] as const;
export const MEMBER_STATUSES = ['active', 'inactive', 'pending'] as const;
export const EVENT_STATUSES = ['upcoming', 'past', 'canceled'] as const;
export const MEMBERSHIP_TYPES = ['standard', 'premium', 'corporate', 'honorary'] as const;

/** Sortable fields of each list (a leading `-` sorts descending). */
export const CHAMBER_SORT_FIELDS = ['name', 'created_at'] as const;
export const MEMBER_SORT_FIELDS = ['name', 'joined_at'] as const;

/** Relations that `GET /v2/chambers/{id}?include=` can embed. */
export const CHAMBER_INCLUDES = ['members', 'events'] as const;

export const API_VERSIONS = ['v1', 'v2'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

const oneOf = (values: readonly string[]) => `must be one of: ${values.join(', ')}`;

export const ChamberType = z.enum(CHAMBER_TYPES, { error: oneOf(CHAMBER_TYPES) });
export const ChamberStatus = z.enum(CHAMBER_STATUSES, { error: oneOf(CHAMBER_STATUSES) });
export const MemberStatus = z.enum(MEMBER_STATUSES, { error: oneOf(MEMBER_STATUSES) });
export const EventStatus = z.enum(EVENT_STATUSES, { error: oneOf(EVENT_STATUSES) });
export const MembershipType = z.enum(MEMBERSHIP_TYPES, { error: oneOf(MEMBERSHIP_TYPES) });

export type ChamberType = z.infer<typeof ChamberType>;
export type ChamberStatus = z.infer<typeof ChamberStatus>;
export type MemberStatus = z.infer<typeof MemberStatus>;
export type EventStatus = z.infer<typeof EventStatus>;
export type MembershipType = z.infer<typeof MembershipType>;
