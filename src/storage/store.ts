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
 * A POST with an `Idempotency-Key` (docs/server-behaviour.md#idempotency): its answer is stored
 * under the client and key in the same transaction as the record, so a repeat is answered from it
 * and never creates a second record, whichever instance it reaches.
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
/** How long an answer is kept for its key (docs/server-behaviour.md#idempotency: 24 hours). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export interface StoredAnswer {
  requestHash: string;
  status: number;
  location: string | null;
  body: string;
}

/**
 * last_used_at is written at most once per this long per client
 * (docs/guides/team-access.md#listing-clients).
 */
export const CLIENT_USE_RESOLUTION_MS = 60_000;

export { SCOPES, type Scope } from '../contract/auth.js';
import type { Scope } from '../contract/auth.js';

/** A client as `clients list` shows it: never its secret nor its hash. */
export interface ClientRecord {
  client_id: string;
  scope: Scope;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** Until when the secret before the last rotation works, as stored (commands show it only while it runs). */
  old_secret_valid_until: string | null;
}

/** What the token endpoint checks a client's credentials against. */
export interface ClientAuth {
  secretHash: string;
  /** The secret before the last rotation, and until when it still works (null: it does not). */
  oldSecretHash: string | null;
  oldSecretValidUntil: string | null;
  scope: Scope;
  revokedAt: string | null;
}

/** A clients row as both backends read it for clientAuth. */
export interface ClientAuthRow {
  secret_hash: string;
  old_secret_hash: string | null;
  old_secret_valid_until: string | null;
  scope: Scope;
  revoked_at: string | null;
}
export const CLIENT_AUTH_COLUMNS = 'secret_hash, old_secret_hash, old_secret_valid_until, scope, revoked_at';
export const clientAuthOf = (row: ClientAuthRow): ClientAuth => ({
  secretHash: row.secret_hash,
  oldSecretHash: row.old_secret_hash,
  oldSecretValidUntil: row.old_secret_valid_until,
  scope: row.scope,
  revokedAt: row.revoked_at,
});

/** A token as the bearer check needs it. */
export interface TokenRecord {
  version: string;
  expiresAt: number;
  clientId: string;
  /**
   * What the token may do now: the lesser of the scope it was issued with and its client's
   * scope, so that `clients edit --scope read` takes the writes from tokens already issued.
   */
  scope: Scope;
}

/** Who made an HTTP write, for its audit record (the request's client, address and id). */
export interface AuditContext {
  clientId: string;
  address: string;
  requestId: string;
}

/**
 * A chamber or member to create, with what the write answers to. One object rather than
 * positional arguments, and `audit` required: a write through the API passes the request's
 * context (server/audit.ts's auditOf), and anything else says `audit: null` in so many words,
 * so a new route cannot forget its audit record by leaving an argument off.
 */
interface NewRecord<Input, Status> {
  input: Input;
  now: Date;
  /** Default `active`. */
  status?: Status;
  /** Default a new id; a seed or a copy keeps its source's. */
  id?: string;
  /** The request's Idempotency-Key, when it has one. */
  idem?: IdempotentWrite;
  /** Who made it through the API; null: not made through the API (seed, snapshot, tests). */
  audit: AuditContext | null;
}
export type ChamberWrite = NewRecord<ChamberCreate, ChamberStatus>;
export type MemberWrite = NewRecord<MemberCreate, MemberStatus> & { chamberId: string };

export const AUDIT_ACTIONS = ['chamber.create', 'member.add', 'client.add', 'client.rotate', 'client.revoke', 'client.scope'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * One audit record, as `audit --json` prints it
 * (docs/manual/chamberctl-audit.md: this order).
 */
export interface AuditRecord {
  at: string;
  action: AuditAction;
  /** The client that made the request; null for a change made by `chamberctl clients`. */
  client_id: string | null;
  /** Who made a client change (`user@host` of the process that made it); null for a write over HTTP, and for records older than the column. */
  operator: string | null;
  /** The new record's id, or the client's id for a client change. */
  target: string | null;
  request_id: string | null;
  address: string | null;
  /** `client.add` and `client.scope`: the scope; `client.rotate`: the grace (`15m`, `0`); else null. */
  detail: string | null;
}

/** The columns of an AuditRecord, in its order, as both backends select them. */
export const AUDIT_COLUMNS = 'at, action, client_id, operator, target, request_id, address, detail';

const GRACE_UNITS: Array<[string, number]> = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1000],
];

/** A rotation's grace as `client.rotate` records it: `0`, or in its largest whole unit (`90s`, `15m`, `2h`, `1d`); `--grace` reads it back. */
export function graceText(ms: number): string {
  if (ms === 0) return '0';
  const [unit, size] = GRACE_UNITS.find(([, size]) => ms % size === 0) ?? ['ms', 1];
  return `${ms / size}${unit}`;
}

export interface AuditFilter {
  /** Records at or after this instant (ISO 8601, UTC). */
  since?: string;
  /** The writes the client made over HTTP (`client_id`). */
  clientId?: string;
  /** The records whose target is this id: a client's changes (`client.*`), a chamber or member created. */
  target?: string;
  /** Only these actions (`audit --action PATTERN`, resolved in team/audit-filter.ts). */
  actions?: readonly AuditAction[];
  limit: number;
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

  /** The client's credentials and standing, for the token endpoint. */
  clientAuth(id: string): Promise<ClientAuth | undefined>;
  /** Clients not revoked. */
  clientCount(): Promise<number>;
  /**
   * Stores a token, unless the client was revoked meanwhile (false: nothing stored); the
   * check and the insert are one statement, so a revocation and an issue cannot cross.
   */
  saveToken(hash: Buffer, clientId: string, version: string, expiresAtMs: number, scope: Scope): Promise<boolean>;
  /** A token of a client that is not revoked. */
  findToken(hash: Buffer): Promise<TokenRecord | undefined>;
  purgeExpiredTokens(nowMs: number): Promise<number>;
  /** Sets the client's last_used_at to `now` unless it was set less than a minute before. */
  noteClientUse(id: string, now: Date): Promise<void>;

  // `chamberctl clients` and `audit`: each change and its audit record in one transaction.
  // `operator` is who made it (`user@host`), recorded with the change; null: unknown.
  /** 'exists' when the id is taken (by a revoked client too). */
  addClient(id: string, secretHash: string, scope: Scope, now: Date, operator?: string | null): Promise<ClientRecord | 'exists'>;
  listClients(): Promise<ClientRecord[]>;
  /**
   * A new secret; the old one works for `graceMs` more (0: not at all), and tokens issued
   * with it expire when its grace ends.
   */
  rotateClient(id: string, secretHash: string, now: Date, graceMs: number, operator?: string | null): Promise<{ old_secret_valid_until: string | null } | 'missing' | 'revoked'>;
  /** Revokes the client and deletes its tokens; `already` when it was revoked before (nothing changed). */
  revokeClient(id: string, now: Date, operator?: string | null): Promise<{ revoked_at: string; already: boolean } | 'missing'>;
  /**
   * Sets the client's scope; its tokens can do no more than it from then on (findToken).
   * `changed` false when it had that scope already: nothing written, nothing recorded. A
   * revoked client is not changed.
   */
  setClientScope(id: string, scope: Scope, now: Date, operator?: string | null): Promise<{ changed: boolean } | 'missing' | 'revoked'>;
  /** Newest first. */
  listAudit(f: AuditFilter): Promise<AuditRecord[]>;
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
   * new chamber is also recorded as a pending local change, in the same transaction; with an
   * `audit` context, in the audit trail too.
   */
  createChamber(w: ChamberWrite & { idem?: undefined }): Promise<Chamber>;
  createChamber(w: ChamberWrite): Promise<Chamber | 'replay'>;
  listMembers(chamberId: string, f: MemberFilter): Promise<Page<Member>>;
  /**
   * 'duplicate' when the chamber already has that e-mail address, in any case, or (either
   * backend may say so) when `idem`'s key already has an answer: the route then looks for
   * it. 'no-chamber' when there is no such chamber: nothing is written. With an `audit`
   * context, an added member is recorded in the audit trail in the same transaction.
   * (Checked in the same statement, so that a POST member is one round trip to a network
   * database.) In a copy, recorded as a pending local change.
   */
  addMember(w: MemberWrite & { idem?: undefined }): Promise<Member | 'duplicate' | 'no-chamber'>;
  addMember(w: MemberWrite): Promise<Member | 'duplicate' | 'replay' | 'no-chamber'>;
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
