import type {
  Chamber,
  ChamberCreate,
  ChamberStatus,
  ChamberType,
  Event,
  EventStatus,
  Member,
  MemberCreate,
  MemberStatus,
  Sort,
} from '../contract/index.js';
import type { JsonText } from './rows.js';

export { parseJsonText, type JsonText } from './rows.js';

export interface Paging {
  page: number;
  perPage: number;
}
/** A page of a list: each item as JSON text, and the list's total. */
export interface Page<T> {
  docs: JsonText<T>[];
  total: number;
}
export interface ChamberFilter extends Paging {
  type?: ChamberType;
  status?: ChamberStatus;
  sort?: Sort<'name' | 'created_at'>;
}
export interface MemberFilter extends Paging {
  status?: MemberStatus;
  sort?: Sort<'name' | 'joined_at'>;
}
export interface EventFilter extends Paging {
  /** The moment statuses are judged at (ISO 8601, UTC): `upcoming` until an event ends, then `past`. */
  now: string;
  status?: EventStatus;
  /** Keep events that end on or after this instant (ISO 8601, UTC). */
  from?: string;
  /** Keep events that start on or before this instant (ISO 8601, UTC). */
  to?: string;
}

export { isUnavailable, StorageUnavailable } from './unavailable.js';

/** The key of the one-member-per-address rule: addresses compare case-insensitively. */
export const emailKey = (email: string) => email.toLowerCase();

/**
 * A POST with an `Idempotency-Key` (decisions.md): its answer is stored under the client
 * and key in the same transaction as the record, so a repeat is answered from it and never
 * creates a second record, whichever instance it reaches.
 */
export interface IdempotentWrite {
  clientId: string;
  key: string;
  /** Identifies the request (method, path and body): the same key with another is refused. */
  requestHash: string;
  nowMs: number;
  /** The Location of the new record, from its id. */
  location: (id: string) => string;
}
/** How long an answer is kept for its key (decisions.md: 24 hours). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export interface StoredAnswer {
  requestHash: string;
  status: number;
  location: string | null;
  body: string;
}

export interface SeededCounts {
  chambers: number;
  members: number;
  events: number;
}

/**
 * What the server needs of a database: the one storage interface, implemented by
 * src/storage/sqlite/ (the embedded default) and src/storage/postgres/ (a shared deployment
 * of several instances). Asynchronous, since a network database is; no SQL outside them.
 * Reads return resources as JSON text, ready to send.
 */
export interface DirectoryStore {
  readonly backend: 'sqlite' | 'postgres';
  /** Where it is, for messages: a file path, `:memory:`, or the URL without its password. */
  readonly location: string;

  putClient(id: string, secretHash: string, now: Date): Promise<void>;
  clientSecretHash(id: string): Promise<string | undefined>;
  clientCount(): Promise<number>;
  saveToken(hash: Buffer, clientId: string, version: string, expiresAtMs: number): Promise<void>;
  findToken(hash: Buffer): Promise<{ version: string; expiresAt: number; clientId: string } | undefined>;
  purgeExpiredTokens(nowMs: number): Promise<number>;
  /** The answer stored for a client's Idempotency-Key, unless older than IDEMPOTENCY_TTL_MS. */
  findAnswer(clientId: string, key: string, nowMs: number): Promise<StoredAnswer | undefined>;
  /** Forgets answers older than IDEMPOTENCY_TTL_MS. */
  purgeExpiredAnswers(nowMs: number): Promise<number>;

  listChambers(f: ChamberFilter): Promise<Page<Chamber>>;
  getChamber(id: string): Promise<JsonText<Chamber> | undefined>;
  chamberType(id: string): Promise<ChamberType | undefined>;
  /**
   * 'replay' when `idem`'s key already has an answer (another request with the key got there
   * first): nothing was created; answer from findAnswer. In a copy made by `sync pull`, the
   * new chamber is also recorded as a pending local change, in the same transaction.
   */
  createChamber(input: ChamberCreate, now: Date, status?: ChamberStatus, id?: string, idem?: IdempotentWrite): Promise<Chamber | 'replay'>;
  listMembers(chamberId: string, f: MemberFilter): Promise<Page<Member>>;
  /**
   * 'duplicate' when the chamber already has that e-mail address, in any case, or (either
   * backend may say so) when `idem`'s key already has an answer: the route then looks for
   * it. 'no-chamber' when there is no such chamber: nothing is written. (Checked in the
   * same statement, so that a POST member is one round trip to a network database.) In a
   * copy, recorded as a pending local change.
   */
  addMember(
    chamberId: string,
    input: MemberCreate,
    now: Date,
    status?: MemberStatus,
    id?: string,
    idem?: IdempotentWrite,
  ): Promise<Member | 'duplicate' | 'replay' | 'no-chamber'>;
  getMember(chamberId: string, memberId: string): Promise<JsonText<Member> | undefined>;
  listEvents(chamberId: string, f: EventFilter): Promise<Page<Event>>;

  /** Neither chambers nor clients, and no copy made by `sync pull`: a database `serve` has never used, and seeds. */
  isUnused(): Promise<boolean>;
  /** Local changes made in a copy and not pushed yet (`sync status` lists them). */
  pendingChanges(): Promise<number>;
  /**
   * Fills an unused database with the deterministic demo data, all or nothing; undefined
   * when another instance seeded it first.
   */
  seedDemo(opts: { size: 'standard' | 'large'; now: Date; seed?: number }): Promise<SeededCounts | undefined>;
  /** Whether the database answers now (GET /healthz). */
  ping(): Promise<boolean>;
  /**
   * The connection pool right now, for /metrics: connections open (busy or idle), idle, and
   * requests waiting for one. Absent where there is no pool (SQLite has one connection).
   */
  poolStats?(): PoolStats;
  close(): Promise<void>;
}

export interface PoolStats {
  open: number;
  idle: number;
  waiting: number;
}
