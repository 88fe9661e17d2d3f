import type { Chamber, ChamberCreate, ChamberStatus, Event, Member, MemberCreate, MemberStatus } from '../contract/index.js';

// Column lists, and the SQL that renders a row as the resource's JSON, in one place for
// every query that reads them. Reads build the JSON inside SQLite (json_object): a page then
// crosses into JavaScript as 20 strings rather than 200 values, and is sent without a
// JSON.stringify — the list endpoints' main cost on large data (bench:server).

export const CHAMBER_COLUMNS = 'id, name, type, hq_id, status, street, city, postal_code, country, created_at';
export const MEMBER_COLUMNS = 'id, chamber_id, name, email, phone, membership_type, status, joined_at';
export const EVENT_COLUMNS = 'id, chamber_id, title, status, starts_at, ends_at, location';

/** JSON text known to encode a T. */
export type JsonText<T> = string & { readonly __encodes?: T };

export const parseJsonText = <T>(text: JsonText<T>): T => JSON.parse(text) as T;

const CHAMBER_OBJECT = `json_object('id', id, 'name', name, 'type', type, 'hq_id', hq_id, 'status', status,
  'address', json_object('street', street, 'city', city, 'postal_code', postal_code, 'country', country),
  'created_at', created_at)`;
const MEMBER_OBJECT = `json_object('id', id, 'chamber_id', chamber_id, 'name', name, 'email', email, 'phone', phone,
  'membership_type', membership_type, 'status', status, 'joined_at', joined_at)`;
/** Its parameter: the moment event statuses are judged at (ISO 8601, UTC); see EVENT_JSON. */
const EVENT_STATUS = `CASE WHEN status = 'canceled' THEN 'canceled' WHEN ends_at >= ? THEN 'upcoming' ELSE 'past' END`;
const EVENT_OBJECT = `json_object('id', id, 'chamber_id', chamber_id, 'title', title,
  'status', ${EVENT_STATUS}, 'starts_at', starts_at, 'ends_at', ends_at, 'location', location)`;

// A record pulled from another server, or loaded from a snapshot, is served as its source
// sent it (`raw`) when that differs from what the columns give: fields this project does
// not know are kept (docs/guides/working-offline.md).
export const CHAMBER_JSON = `coalesce(raw, ${CHAMBER_OBJECT})`;
export const MEMBER_JSON = `coalesce(raw, ${MEMBER_OBJECT})`;
/**
 * An event's status is judged when it is read (docs/server-behaviour.md#statuses): `canceled` as
 * stored, else `upcoming` until it ends and `past` after. Its first two parameters are that moment
 * (two `?`, each bound by position, as every parameter of these statements).
 */
export const EVENT_JSON = `CASE WHEN raw IS NULL THEN ${EVENT_OBJECT} ELSE json_set(raw, '$.status', ${EVENT_STATUS}) END`;

/**
 * A row's values in the order of its *_COLUMNS, for the statements of SQLite that insert it:
 * node:sqlite binds by position in less than half the time it takes by name (`@id`): an
 * insert of 11 values took 1.4-1.8 µs of CPU against 3.7-4.2 µs (docs/performance.md).
 */
export const chamberValues = (r: ChamberRow) => [r.id, r.name, r.type, r.hq_id, r.status, r.street, r.city, r.postal_code, r.country, r.created_at] as const;
export const memberValues = (m: Member) => [m.id, m.chamber_id, m.name, m.email, m.phone, m.membership_type, m.status, m.joined_at] as const;
export const eventValues = (e: Event) => [e.id, e.chamber_id, e.title, e.status, e.starts_at, e.ends_at, e.location] as const;

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

/** A chamber's columns: its fields with the address spread out (toChamber's inverse). */
export function chamberRowOf(c: Chamber): ChamberRow {
  const { street, city, postal_code, country } = c.address;
  return { id: c.id, name: c.name, type: c.type, hq_id: c.hq_id, status: c.status, street, city, postal_code, country, created_at: c.created_at };
}

// Members and events are stored with exactly the returned fields.
export type MemberRow = import('../contract/index.js').Member;
export type EventRow = import('../contract/index.js').Event;

/** The row of a chamber created through the API (both backends store the same). */
export function newChamberRow(input: ChamberCreate, now: Date, status: ChamberStatus, id: string): ChamberRow {
  return {
    id,
    name: input.name,
    type: input.type,
    hq_id: input.type === 'subsidiary' ? (input.hq_id ?? null) : null,
    status,
    street: input.address.street,
    city: input.address.city,
    postal_code: input.address.postal_code ?? null,
    country: input.address.country,
    created_at: now.toISOString(),
  };
}

/** A member added through the API, as stored and returned. */
export function newMember(chamberId: string, input: MemberCreate, now: Date, status: MemberStatus, id: string): Member {
  return {
    id,
    chamber_id: chamberId,
    name: input.name,
    email: input.email,
    phone: input.phone ?? null,
    membership_type: input.membership_type,
    status,
    joined_at: now.toISOString(),
  };
}

/** What the columns of a chamber give (the order every read of this project uses). */
export const chamberOf = (c: Chamber): Chamber => ({
  id: c.id,
  name: c.name,
  type: c.type,
  hq_id: c.hq_id,
  status: c.status,
  address: { street: c.address.street, city: c.address.city, postal_code: c.address.postal_code, country: c.address.country },
  created_at: c.created_at,
});
export const memberOf = (r: Member): Member => ({
  id: r.id,
  chamber_id: r.chamber_id,
  name: r.name,
  email: r.email,
  phone: r.phone,
  membership_type: r.membership_type,
  status: r.status,
  joined_at: r.joined_at,
});
/** `now` judges the status (docs/server-behaviour.md#statuses); without it, the stored status. */
export const eventOf = (r: Event, now?: string): Event => ({
  id: r.id,
  chamber_id: r.chamber_id,
  title: r.title,
  status: now === undefined || r.status === 'canceled' ? r.status : r.ends_at >= now ? 'upcoming' : 'past',
  starts_at: r.starts_at,
  ends_at: r.ends_at,
  location: r.location,
});

/**
 * The `raw` column for a record from elsewhere: its JSON text when the columns alone would
 * not give it back byte for byte (extra fields, another key order), else null. `canonical`
 * is built from the record's own values (chamberOf and the like), so the two texts are equal
 * exactly when their keys are, in order, at every level: compared without serialising.
 */
export function rawUnlessCanonical(record: object, canonical: object): string | null {
  return sameKeys(record, canonical) ? null : JSON.stringify(record);
}

function sameKeys(a: object, b: object): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i]) return false;
    const va = (a as Record<string, unknown>)[ka[i]!];
    const vb = (b as Record<string, unknown>)[kb[i]!];
    if (va !== null && typeof va === 'object' && !sameKeys(va, vb as object)) return false;
  }
  return true;
}
