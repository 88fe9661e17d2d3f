import type { Chamber, Event, Member } from '../contract/index.js';
import { formatDate, formatSpan, formatTime, orNone } from './format.js';

/**
 * A column of a terminal table (`table` gives the plain text of a cell). The space goes to
 * what a person reads (src/output/table.ts): an `optional` column is shown (the highest
 * number first) only while the `readable` columns keep their readable width; then the
 * `narrower` forms are used, then `shrink` columns are cut (with `…`), the `keep` ones
 * (names, e-mail, titles) in the middle, so that names sharing a long start stay told apart.
 * The others (ids, statuses) are never cut. `status` cells are coloured by value. `--wide`
 * shows every column uncut.
 */
export interface Column<T> {
  header: string;
  table: (item: T) => string;
  shrink?: boolean;
  /** Cut in the middle. */
  keep?: boolean;
  /** Shown only when there is room; the lowest number is left out first. */
  optional?: number;
  /** A `shrink` column's readable width: optional columns never push it below this. */
  readable?: number;
  /** Narrower forms of the column (a shorter header and cell), tried in order before names are cut. */
  narrower?: Array<{ header: string; table: (item: T) => string }>;
  status?: boolean;
}

export interface ResourceView<T> {
  /** Singular and plural nouns for footers ("234 chambers"). */
  noun: [string, string];
  /** The object's fields, as `--json FIELDS` may name them. */
  fields?: readonly string[];
  columns: Column<T>[];
  /** The TSV row, in the documented (stable) order. */
  tsv: (item: T) => Array<string | number | null>;
  /**
   * --format csv: the header and the row. The member columns are the ones `members import`
   * reads (name, email, phone, membership_type) first, so an export imports back unchanged.
   */
  csv: { header: string[]; row: (item: T) => Array<string | number | null> };
}

import { CHAMBER_FIELDS, EVENT_FIELDS, MEMBER_FIELDS } from '../contract/values.js';
export { CHAMBER_FIELDS, CHAMBER_INCLUDES, EVENT_FIELDS, MEMBER_FIELDS } from '../contract/values.js';

/** `Berlin, DE` */
export const cityCountry = (c: Chamber) => [c.address?.city, c.address?.country].filter(Boolean).join(', ');

// TSV column orders are part of the interface for scripts (docs/manual/help-output.md): append only.
export const chamberView: ResourceView<Chamber> = {
  noun: ['chamber', 'chambers'],
  fields: CHAMBER_FIELDS,
  columns: [
    { header: 'ID', table: (c) => c.id },
    { header: 'NAME', table: (c) => c.name, shrink: true, keep: true, readable: 36 },
    { header: 'TYPE', table: (c) => c.type },
    { header: 'STATUS', table: (c) => c.status, status: true },
    { header: 'HQ', table: (c) => orNone(c.hq_id), optional: 1 }, // an id: dropped, never cut
    // cut in the middle, so that the country stays
    { header: 'LOCATION', table: cityCountry, shrink: true, keep: true, optional: 3, readable: 16 },
    { header: 'CREATED', table: (c) => formatDate(c.created_at), optional: 2 },
  ],
  tsv: (c) => [
    c.id,
    c.name,
    c.type,
    c.status,
    c.hq_id,
    c.address?.street ?? null,
    c.address?.postal_code ?? null,
    c.address?.city ?? null,
    c.address?.country ?? null,
    c.created_at,
  ],
  csv: {
    header: ['id', 'name', 'type', 'hq_id', 'status', 'street', 'postal_code', 'city', 'country', 'created_at'],
    row: (c) => [c.id, c.name, c.type, c.hq_id, c.status, c.address?.street ?? null, c.address?.postal_code ?? null, c.address?.city ?? null, c.address?.country ?? null, c.created_at],
  },
};

export const memberView: ResourceView<Member> = {
  noun: ['member', 'members'],
  fields: MEMBER_FIELDS,
  columns: [
    { header: 'ID', table: (m) => m.id },
    { header: 'NAME', table: (m) => m.name, shrink: true, keep: true, readable: 24 },
    { header: 'EMAIL', table: (m) => m.email, shrink: true, keep: true, readable: 28 },
    { header: 'PHONE', table: (m) => orNone(m.phone), shrink: true, optional: 1 },
    { header: 'MEMBERSHIP', table: (m) => m.membership_type, optional: 3 },
    { header: 'STATUS', table: (m) => m.status, status: true },
    { header: 'JOINED', table: (m) => formatDate(m.joined_at), optional: 2 },
  ],
  tsv: (m) => [m.id, m.name, m.email, m.phone, m.membership_type, m.status, m.joined_at],
  csv: {
    header: ['name', 'email', 'phone', 'membership_type', 'status', 'joined_at', 'id', 'chamber_id'],
    row: (m) => [m.name, m.email, m.phone, m.membership_type, m.status, m.joined_at, m.id, m.chamber_id],
  },
};

export const eventView: ResourceView<Event> = {
  noun: ['event', 'events'],
  fields: EVENT_FIELDS,
  columns: [
    { header: 'ID', table: (e) => e.id },
    { header: 'TITLE', table: (e) => e.title, shrink: true, keep: true, readable: 36 },
    { header: 'STATUS', table: (e) => e.status, status: true },
    {
      header: 'WHEN (UTC)',
      table: (e) => formatSpan(e.starts_at, e.ends_at),
      // on a narrow terminal the start alone, then its day, rather than titles cut short
      narrower: [
        { header: 'STARTS (UTC)', table: (e) => formatTime(e.starts_at) },
        { header: 'STARTS', table: (e) => formatDate(e.starts_at) },
      ],
    },
    { header: 'LOCATION', table: (e) => orNone(e.location), shrink: true, optional: 1, readable: 16 },
  ],
  tsv: (e) => [e.id, e.title, e.status, e.starts_at, e.ends_at, e.location],
  csv: {
    header: ['id', 'chamber_id', 'title', 'status', 'starts_at', 'ends_at', 'location'],
    row: (e) => [e.id, e.chamber_id, e.title, e.status, e.starts_at, e.ends_at, e.location],
  },
};

export function countOf(view: { noun: [string, string] }, n: number): string {
  return `${n} ${n === 1 ? view.noun[0] : view.noun[1]}`;
}
