import type { Chamber, Event, Member } from '../contract/index.js';

// Column lists and row → resource mapping, in one place for every query that reads them.

export const CHAMBER_COLUMNS = 'id, name, type, hq_id, status, street, city, postal_code, country, created_at';
export const MEMBER_COLUMNS = 'id, chamber_id, name, email, phone, membership_type, status, joined_at';
export const EVENT_COLUMNS = 'id, chamber_id, title, status, starts_at, ends_at, location';

export interface ChamberRow {
  id: string;
  name: string;
  type: Chamber['type'];
  hq_id: string | null;
  status: Chamber['status'];
  street: string;
  city: string;
  postal_code: string | null;
  country: string;
  created_at: string;
}

export function toChamber(r: ChamberRow): Chamber {
  return {
    id: r.id,
    name: r.name,
    type: r.type,
    hq_id: r.hq_id,
    status: r.status,
    address: { street: r.street, city: r.city, postal_code: r.postal_code, country: r.country },
    created_at: r.created_at,
  };
}

// Members and events are stored with exactly the returned fields, in the returned order.
export type MemberRow = Member;
export type EventRow = Event;
