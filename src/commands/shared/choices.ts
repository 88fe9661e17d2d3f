// The allowed values of the directory commands (their --help, their prompts and shell
// completion), from the contract's plain lists (src/contract/values.ts, no zod: --help stays
// fast). test/commands/register.test.ts checks them against the server's schemas and the
// published OpenAPI documents.
import {
  CHAMBER_INCLUDES,
  CHAMBER_SORTS,
  CHAMBER_STATUSES,
  CHAMBER_TYPES,
  EVENT_STATUSES,
  MEMBER_SORTS,
  MEMBER_STATUSES,
  MEMBERSHIP_TYPES,
} from '../../contract/values.js';

export const CHOICES = {
  chamberType: CHAMBER_TYPES,
  chamberStatus: CHAMBER_STATUSES,
  chamberSort: CHAMBER_SORTS,
  chamberInclude: CHAMBER_INCLUDES,
  memberStatus: MEMBER_STATUSES,
  memberSort: MEMBER_SORTS,
  eventStatus: EVENT_STATUSES,
  membershipType: MEMBERSHIP_TYPES,
  /** An API client's scope (`clients add --scope`); the contract's SCOPES, which come with zod. */
  clientScope: ['read', 'write'],
} as const;
