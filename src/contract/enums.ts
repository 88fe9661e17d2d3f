import * as z from 'zod/mini';
import {
  CHAMBER_STATUSES,
  CHAMBER_TYPES,
  EVENT_STATUSES,
  MEMBER_STATUSES,
  MEMBERSHIP_TYPES,
} from './values.js';

export * from './values.js';

export const oneOf = (values: readonly string[]) => `must be one of: ${values.join(', ')}`;

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
