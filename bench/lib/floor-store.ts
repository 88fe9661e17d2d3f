// What the same-work floor (bench/same-work-floor.ts) asks of a database: the work `serve`'s
// storage does for a list page or a POST member, done by hand on one backend
// (floor-sqlite.ts, floor-postgres.ts).

/** A list request's query, read without zod (the floor checks only what becomes SQL). */
export interface ListQuery {
  page: number;
  perPage: number;
  type?: string;
  status?: string;
  sort?: { field: string; desc: boolean };
  /** Events: the window, as the contract's dateParam normalises it (UTC ISO 8601). */
  from?: string;
  to?: string;
}

/** A page as JSON texts, one per record, and the list's total. */
export interface FloorPage {
  docs: string[];
  total: number;
}

/** A member as the storage stores and returns it, and who added it (its audit row). */
export interface NewMember {
  id: string;
  chamber_id: string;
  name: string;
  email: string;
  phone: string | null;
  membership_type: string;
  status: 'active';
  joined_at: string;
  audit: { clientId: string; requestId: string; address: string };
}

export interface FloorStore {
  chambers(q: ListQuery): Promise<FloorPage>;
  members(chamberId: string, q: ListQuery): Promise<FloorPage>;
  events(chamberId: string, q: ListQuery): Promise<FloorPage>;
  chamberExists(id: string): Promise<boolean>;
  addMember(member: NewMember): Promise<'added' | 'duplicate' | 'no-chamber'>;
}
