import type { Chamber, Event, Member } from '../contract/index.js';

// What offline work (`sync pull|status|push|discard`) needs of a local copy: one interface,
// implemented on SQLite (src/storage/sqlite/sync-copy.ts, synchronous) and on PostgreSQL
// (src/storage/postgres/sync-copy.ts); the sync code awaits every call. Records keep their
// source's ids; `synced_run` names the pull that last saw a record (NULL: made here).

type Maybe<T> = T | Promise<T>;

export interface SyncSource {
  profile: string;
  base_url: string;
}

export interface SyncState {
  source?: SyncSource;
  /** When the last complete pull ended (ISO 8601). */
  pulledAt?: string;
  /** The pull under way (an interrupted one continues with it). */
  run?: number;
  lastRun: number;
  /** Whether the last pull copied events (a v1-only remote has none to give). */
  events?: boolean;
}

/** The rows of the `sync_state` table (key, value), as a SyncState (both backends store the same). */
export function syncStateOf(rows: { key: string; value: string }[]): SyncState {
  const v = Object.fromEntries(rows.map((r) => [r.key, r.value]));
  return {
    ...(v.source ? { source: JSON.parse(v.source) as SyncSource } : {}),
    ...(v.pulled_at ? { pulledAt: v.pulled_at } : {}),
    ...(v.run ? { run: Number(v.run) } : {}),
    lastRun: Number(v.last_run ?? 0),
    ...(v.events ? { events: v.events === 'true' } : {}),
  };
}

export interface LocalChange {
  seq: number;
  id: string;
  kind: 'chamber' | 'member';
  record_id: string;
  chamber_id: string | null;
  /** What push sends, as JSON text. */
  body: string;
  idempotency_key: string;
  created_at: string;
  state: 'pending' | 'rejected';
  error: string | null;
  /** Set before each send: a change with it may have reached the remote already. */
  attempted_at: string | null;
  /** A chamber: how many chambers of its type the remote listed before the first send. */
  remote_before: number | null;
}

export interface CopyCounts {
  chambers: number;
  members: number;
  events: number;
}

export interface CopyStore {
  /** The database, for messages (a path, or a URL without its password). */
  readonly location: string;
  /** Remote members not written because a pending local member of the chamber has their address. */
  readonly heldBack: number;

  state(): Maybe<SyncState>;
  /** Chambers in a database that no pull made (demo data, a snapshot): not a copy to refresh. */
  holdsOtherData(): Maybe<boolean>;
  /** The pull to run: the interrupted one, or a new one (which forgets what an old one visited). */
  startRun(source: SyncSource): Maybe<number>;

  /** The chamber list of a pull is written between these two (references among its pages may point forward). */
  beginChamberList(): Maybe<void>;
  endChamberList(ok: boolean): Maybe<void>;
  upsertChambers(records: Chamber[], run: number): Maybe<void>;
  upsertMembers(records: Member[], run: number): Maybe<void>;
  upsertEvents(records: Event[], run: number): Maybe<void>;
  /** Commits what was written (a backend may hold writes in an open batch). */
  flush(): Maybe<void>;
  /** The chambers this pull saw and has not finished yet, in id order, after `afterId`. */
  chambersToVisit(run: number, afterId: string, limit: number): Maybe<string[]>;
  runProgress(run: number): Maybe<{ seen: number; done: number }>;
  /** A chamber's members (and events) are all in: what the pull did not see of them goes. */
  finishChamber(chamberId: string, run: number, events: boolean): Maybe<void>;
  /** The pull is complete: what it did not see goes, except what pending changes need; returns those kept. */
  finishRun(run: number, pulledAt: string, events: boolean): Maybe<string[]>;
  /** A chamber gone at the remote, unless pending changes refer to it; whether it was removed. */
  removeUnlessReferenced(id: string): Maybe<boolean>;
  counts(): Maybe<CopyCounts>;

  changes(): Maybe<LocalChange[]>;
  change(id: string): Maybe<LocalChange | undefined>;
  /** The pending change that made a record, if one did. */
  changeFor(recordId: string): Maybe<LocalChange | undefined>;
  discard(changeId: string): Maybe<'discarded' | 'missing' | { dependents: string[] }>;
  markAttempted(changeId: string, at: string, remoteBefore?: number): Maybe<void>;
  markRejected(changeId: string, error: string): Maybe<void>;
  /** The remote holds the chamber now: the copy keeps its record under its id, references follow. */
  settleChamber(change: LocalChange, remote: Chamber): Maybe<void>;
  settleMember(change: LocalChange, remote: Member): Maybe<void>;
  close(): Maybe<void>;
}
