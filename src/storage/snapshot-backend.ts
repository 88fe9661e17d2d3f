import type { ChamberType, Event, Member } from '../contract/index.js';
import type { ChamberRow } from './rows.js';

// What snapshot export and import need of a database, implemented once per backend
// (src/storage/sqlite/snapshot-io.ts, src/storage/postgres/snapshot-io.ts), so that the
// file format lives in src/snapshot/ (which uses this interface) and the SQL in src/storage/.

/** A row as stored: the columns, and the record as its source sent it when that differs. */
export type Stored<T> = T & { raw: string | null };

/** Rows in id order (byte order), a chunk at a time; the three lists read in one consistent view. */
export interface SnapshotTables {
  chambers(): AsyncIterable<Stored<ChamberRow>[]>;
  members(): AsyncIterable<Stored<Member>[]>;
  events(): AsyncIterable<Stored<Event>[]>;
}

/** A row to insert, with the snapshot line it came from (for the error that names it). */
export interface LoadRow<T> {
  line: number;
  row: T;
  raw: string | null;
}

/** Thrown by a loader when a row collides with one already in the database or loaded before it. */
export class LoadConflict extends Error {
  constructor(
    readonly line: number,
    readonly kind: 'chamber' | 'member' | 'event',
    /** `id`: the id is taken; `email`: the chamber already has a member with that e-mail (any case). */
    readonly on: 'id' | 'email',
    readonly row: { id: string; chamber_id?: string; email?: string },
  ) {
    super(`line ${line}: conflict on ${on}`);
  }
}

export interface SnapshotLoader {
  /** Whether the database held chambers before the load (after `--replace` emptied it: false). */
  readonly hadChambers: boolean;
  /** The types of those of `ids` that are chambers of the database. */
  chamberTypes(ids: string[]): Promise<Map<string, ChamberType>>;
  insertChambers(rows: LoadRow<ChamberRow>[]): Promise<void>;
  /** Members also get `email_key` (store.ts `emailKey`). */
  insertMembers(rows: LoadRow<Member>[]): Promise<void>;
  insertEvents(rows: LoadRow<Event>[]): Promise<void>;
}

export interface SnapshotBackend {
  /** Where the database is, for messages (a URL without its password). */
  readonly location: string;
  read<T>(work: (tables: SnapshotTables) => Promise<T>): Promise<T>;
  /**
   * Runs `work` in one transaction, committed only when it returns (so a failure leaves
   * the database as it was). `replace`: chambers, members, events, local changes and sync
   * state are emptied first (clients and tokens stay). `onlyIfUnused`: nothing happens,
   * and the result is undefined, when the database has chambers or clients (serve --seed).
   */
  load<T>(opts: { replace: boolean; onlyIfUnused?: boolean }, work: (loader: SnapshotLoader) => Promise<T>): Promise<T | undefined>;
}
