import type { Chamber, Event, Member } from '../../contract/index.js';
import { syncStateOf, type CopyCounts, type CopyStore, type LocalChange, type SyncSource, type SyncState } from '../copy-store.js';
import { copiedChamberRow, copiedMemberRow } from '../copied-rows.js';
import { chamberValues, eventOf, eventValues, rawUnlessCanonical } from '../rows.js';
import type { Database } from './database.js';
import { deferListIndexes, restoreDeferredIndexes } from './deferred-indexes.js';
import type { Storage } from './storage.js';

// The SQL of offline work (docs/guides/working-offline.md) on a SQLite copy: what `sync pull`
// writes, what `sync push` and `sync status` read and rewrite. Records keep their source's
// ids; `synced_run` names the pull that last saw a record (NULL: made here, not yet pushed).
//
// This connection runs without foreign-key enforcement: a remote's pages may name a
// subsidiary before its HQ, and a pushed chamber changes id under its members. The
// references are kept by the statements here instead (children are moved or removed with
// their chamber).

/**
 * A pull's writes are committed together past this many rows, or this long after the first.
 * Most of a commit is writing the pages of the members' primary key, whose ids come in no
 * order, so fewer and larger commits write far less (docs/performance.md, "sync pull").
 */
const FLUSH_ROWS = 50_000;
const FLUSH_MS = 3_000;

export class SyncCopy implements CopyStore {
  readonly db: Database;

  constructor(readonly storage: Storage) {
    this.db = storage.db;
    this.db.pragma('foreign_keys = OFF');
  }

  get location(): string {
    return this.db.name;
  }

  // Foreign keys are off on this connection: pages may name an HQ that comes later.
  beginChamberList(): void {}
  endChamberList(): void {}

  /** Commits the open batch, then closes the database. */
  close(): void {
    if (this.storage.db.open) this.flush();
    this.storage.close();
  }

  // ------------------------------------------------------------------ state

  state(): SyncState {
    const rows = this.storage.stmt('SELECT key, value FROM sync_state').all() as { key: string; value: string }[];
    return syncStateOf(rows);
  }

  private set(key: string, value: string | undefined): void {
    if (value === undefined) this.storage.stmt('DELETE FROM sync_state WHERE key = ?').run(key);
    else this.storage.stmt('INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  /** Chambers in a database that no pull made (demo data, a snapshot): not a copy to refresh. */
  holdsOtherData(): boolean {
    return !this.state().source && this.storage.stmt('SELECT 1 FROM chambers LIMIT 1').get() !== undefined;
  }

  /**
   * The pull to run: the interrupted one, or a new one (which forgets what an old one
   * visited). A new one into an empty copy loads it in bulk: list indexes built at the end.
   */
  startRun(source: SyncSource): number {
    return this.storage.transaction(() => {
      const s = this.state();
      this.set('source', JSON.stringify(source));
      if (s.run) return s.run;
      const run = s.lastRun + 1;
      this.set('run', String(run));
      this.storage.stmt('DELETE FROM sync_done').run();
      if (this.storage.stmt('SELECT 1 FROM chambers LIMIT 1').get() === undefined) deferListIndexes(this.db);
      return run;
    });
  }

  // ------------------------------------------------------------------ pull: writes
  //
  // A pull's writes run at once inside one open transaction, committed every FLUSH_ROWS
  // rows or FLUSH_MS after its first write: one transaction per page would rewrite the same
  // index pages into the WAL hundreds of thousands of times, and the rows wait in SQLite's
  // page cache rather than as JavaScript objects, so a larger batch costs no heap
  // (bench:sync). A chamber is marked finished in the same transaction, after its rows, so a
  // killed pull loses at most the last batch and redoes those chambers.

  #batchRows = 0;
  #timer: NodeJS.Timeout | undefined;
  /** Remote members not written because a pending local member of the chamber has their address. */
  heldBack = 0;

  #failure: unknown;

  #write(rows: number, write: () => void): void {
    this.#throwFailure();
    if (!this.db.inTransaction) {
      this.db.exec('BEGIN IMMEDIATE');
      this.#batchRows = 0;
      this.#timer = setTimeout(() => {
        try {
          this.flush();
        } catch (err) {
          this.#failure = err; // the next write or flush reports it
        }
      }, FLUSH_MS).unref();
    }
    try {
      write();
    } catch (err) {
      this.#end('ROLLBACK'); // the whole batch: its chambers are not marked finished either
      throw err;
    }
    this.#batchRows += rows;
    if (this.#batchRows >= FLUSH_ROWS) this.flush();
  }

  #throwFailure(): void {
    if (this.#failure === undefined) return;
    const err = this.#failure;
    this.#failure = undefined;
    throw err;
  }

  #end(how: 'COMMIT' | 'ROLLBACK'): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.db.inTransaction) this.db.exec(how);
  }

  /** Commits the batch (also done on its own, by size and by time). */
  flush(): void {
    this.#throwFailure();
    try {
      this.#end('COMMIT');
    } catch (err) {
      this.#end('ROLLBACK');
      throw err;
    }
  }

  upsertChambers(records: Chamber[], run: number): void {
    const stmt = this.storage.stmt(CHAMBER_UPSERT);
    this.#write(records.length, () => records.forEach((c) => stmt.run(...copiedChamberValues(c, run))));
  }

  /**
   * A remote member whose address a pending local member of the chamber already has is not
   * written (counted in `heldBack`): push will find it at the remote and take its id.
   */
  upsertMembers(records: Member[], run: number): void {
    const upsert = this.storage.stmt(MEMBER_UPSERT);
    const holder = this.storage.stmt('SELECT id, synced_run FROM members WHERE chamber_id = ? AND email_key = ? AND id <> ?');
    const remove = this.storage.stmt('DELETE FROM members WHERE id = ?');
    this.#write(records.length, () => {
      for (const m of records) {
        const row = copiedMemberRow(m);
        try {
          upsert.run(...memberValues(row, run));
        } catch (err) {
          if ((err as { code?: string }).code !== 'SQLITE_CONSTRAINT_UNIQUE') throw err;
          // Another member of the chamber has the address: at the remote it moved to this
          // member, so the old holder's row is stale (this pull refreshes or removes it),
          // unless the holder is a local change.
          const other = holder.get(row.chamber_id, row.email_key, row.id) as { id: string; synced_run: number | null } | undefined;
          if (!other) throw err;
          if (other.synced_run === null) {
            this.heldBack++;
            continue;
          }
          remove.run(other.id);
          upsert.run(...memberValues(row, run));
        }
      }
    });
  }

  upsertEvents(records: Event[], run: number): void {
    const stmt = this.storage.stmt(
      `INSERT INTO events (id, chamber_id, title, status, starts_at, ends_at, location, raw, synced_run)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET chamber_id = excluded.chamber_id, title = excluded.title, status = excluded.status,
         starts_at = excluded.starts_at, ends_at = excluded.ends_at, location = excluded.location, raw = excluded.raw,
         synced_run = excluded.synced_run`,
    );
    this.#write(records.length, () =>
      records.forEach((e) => {
        const canonical = eventOf(e);
        stmt.run(...eventValues(canonical), rawUnlessCanonical(e, canonical), run);
      }),
    );
  }

  /** The chambers this pull saw and has not finished yet, in id order, after `afterId`. */
  chambersToVisit(run: number, afterId: string, limit: number): string[] {
    return this.storage
      .stmt(
        `SELECT id FROM chambers WHERE synced_run = ? AND id > ? AND id NOT IN (SELECT chamber_id FROM sync_done) ORDER BY id LIMIT ?`,
      )
      .pluck()
      .all(run, afterId, limit) as string[];
  }

  /** How many chambers this pull saw, and how many of them it has finished. */
  runProgress(run: number): { seen: number; done: number } {
    this.flush();
    const seen = this.storage.stmt('SELECT count(*) FROM chambers WHERE synced_run = ?').pluck().get(run) as number;
    const done = this.storage.stmt('SELECT count(*) FROM sync_done').pluck().get() as number;
    return { seen, done };
  }

  /** A chamber's members (and events) are all in: what the pull did not see of them goes. */
  finishChamber(chamberId: string, run: number, events: boolean): void {
    this.#write(1, () => {
      this.storage.stmt('DELETE FROM members WHERE chamber_id = ? AND synced_run IS NOT NULL AND synced_run <> ?').run(chamberId, run);
      if (events) this.storage.stmt('DELETE FROM events WHERE chamber_id = ? AND synced_run IS NOT NULL AND synced_run <> ?').run(chamberId, run);
      this.storage.stmt('INSERT OR IGNORE INTO sync_done (chamber_id) VALUES (?)').run(chamberId);
    });
  }

  /**
   * The pull is complete: chambers it did not see are gone at the remote and go here too,
   * with their members and events, except those that pending local changes refer to (push
   * reports them). Returns the ids kept for that reason.
   */
  finishRun(run: number, pulledAt: string, events: boolean): string[] {
    this.flush();
    restoreDeferredIndexes(this.db);
    return this.storage.transaction(() => {
      const stale = this.storage
        .stmt('SELECT id FROM chambers WHERE synced_run IS NOT NULL AND synced_run <> ?')
        .pluck()
        .all(run) as string[];
      const kept = stale.filter((id) => !this.removeUnlessReferenced(id));
      this.set('last_run', String(run));
      this.set('run', undefined);
      this.set('pulled_at', pulledAt);
      this.set('events', String(events));
      this.storage.stmt('DELETE FROM sync_done').run();
      return kept;
    });
  }

  /**
   * Removes a chamber gone at the remote, unless a pending local change refers to it (a
   * member added to it, a subsidiary of it). Returns whether it was removed.
   */
  removeUnlessReferenced(id: string): boolean {
    const referenced = this.storage
      .stmt(
        `SELECT 1 FROM local_changes WHERE chamber_id = ?1 OR (kind = 'chamber' AND json_extract(body, '$.hq_id') = ?1) LIMIT 1`,
      )
      .get({ 1: id });
    if (referenced) return false;
    this.removeChamber(id);
    return true;
  }

  /** A chamber gone at the remote, with its members and events (not local changes' records). */
  removeChamber(id: string): void {
    this.storage.stmt('DELETE FROM members WHERE chamber_id = ? AND synced_run IS NOT NULL').run(id);
    this.storage.stmt('DELETE FROM events WHERE chamber_id = ? AND synced_run IS NOT NULL').run(id);
    this.storage.stmt('DELETE FROM chambers WHERE id = ? AND synced_run IS NOT NULL').run(id);
  }

  counts(): CopyCounts {
    const sum = (table: string) => this.storage.stmt(`SELECT coalesce(sum(n), 0) FROM ${table}`).pluck().get() as number;
    return { chambers: sum('chamber_counts'), members: sum('member_counts'), events: sum('event_counts') };
  }

  // ------------------------------------------------------------------ local changes

  changes(): LocalChange[] {
    return this.storage.stmt('SELECT * FROM local_changes ORDER BY seq').all() as LocalChange[];
  }

  change(id: string): LocalChange | undefined {
    return this.storage.stmt('SELECT * FROM local_changes WHERE id = ?').get(id) as LocalChange | undefined;
  }

  /** The pending change that made a record, if one did (a local chamber a change refers to). */
  changeFor(recordId: string): LocalChange | undefined {
    return this.storage.stmt('SELECT * FROM local_changes WHERE record_id = ?').get(recordId) as LocalChange | undefined;
  }

  /**
   * Drops a change and the record it made. Refused (the ids of the changes in the way)
   * while other pending changes refer to that record: a member of the chamber, a subsidiary.
   */
  discard(changeId: string): 'discarded' | 'missing' | { dependents: string[] } {
    return this.storage.transaction(() => {
      const change = this.storage.stmt('SELECT * FROM local_changes WHERE id = ?').get(changeId) as LocalChange | undefined;
      if (!change) return 'missing';
      if (change.kind === 'chamber') {
        const dependents = this.storage
          .stmt(
            `SELECT id FROM local_changes WHERE chamber_id = ? OR (kind = 'chamber' AND json_extract(body, '$.hq_id') = ?) ORDER BY seq`,
          )
          .pluck()
          .all(change.record_id, change.record_id) as string[];
        if (dependents.length) return { dependents };
        this.storage.stmt('DELETE FROM chambers WHERE id = ? AND synced_run IS NULL').run(change.record_id);
      } else {
        this.storage.stmt('DELETE FROM members WHERE id = ? AND synced_run IS NULL').run(change.record_id);
      }
      this.storage.stmt('DELETE FROM local_changes WHERE id = ?').run(changeId);
      return 'discarded';
    });
  }

  /** Committed before a POST; `remoteBefore` is kept from the first attempt on. */
  markAttempted(changeId: string, at: string, remoteBefore?: number): void {
    this.storage
      .stmt('UPDATE local_changes SET attempted_at = ?, remote_before = coalesce(remote_before, ?) WHERE id = ?')
      .run(at, remoteBefore ?? null, changeId);
  }

  markRejected(changeId: string, error: string): void {
    this.storage.stmt("UPDATE local_changes SET state = 'rejected', error = ? WHERE id = ?").run(error, changeId);
  }

  /**
   * The remote holds the chamber now: the copy keeps the remote's record under its id, the
   * local record's members, events, subsidiaries and pending changes follow it there, and
   * the change is gone. One transaction.
   */
  settleChamber(change: LocalChange, remote: Chamber): void {
    const run = this.state().lastRun || null;
    this.storage.transaction(() => {
      const local = change.record_id;
      if (remote.id !== local) {
        this.storage.stmt('UPDATE members SET chamber_id = ? WHERE chamber_id = ?').run(remote.id, local);
        this.storage.stmt('UPDATE events SET chamber_id = ? WHERE chamber_id = ?').run(remote.id, local);
        this.storage.stmt('UPDATE chambers SET hq_id = ? WHERE hq_id = ?').run(remote.id, local);
        this.storage.stmt('UPDATE local_changes SET chamber_id = ? WHERE chamber_id = ?').run(remote.id, local);
        this.storage
          .stmt(`UPDATE local_changes SET body = json_set(body, '$.hq_id', ?) WHERE kind = 'chamber' AND json_extract(body, '$.hq_id') = ?`)
          .run(remote.id, local);
        this.storage.stmt('DELETE FROM chambers WHERE id = ?').run(local);
      }
      this.storage.stmt(CHAMBER_UPSERT).run(...copiedChamberValues(remote, run));
      this.storage.stmt('DELETE FROM local_changes WHERE id = ?').run(change.id);
    });
  }

  /** The remote holds the member now: the copy keeps the remote's record instead of the local one. */
  settleMember(change: LocalChange, remote: Member): void {
    const run = this.state().lastRun || null;
    this.storage.transaction(() => {
      this.storage.stmt('DELETE FROM members WHERE id = ?').run(change.record_id);
      const row = copiedMemberRow(remote);
      // a stale copy of the remote's member (an earlier pull) gives way
      this.storage.stmt('DELETE FROM members WHERE chamber_id = ? AND email_key = ? AND id <> ?').run(row.chamber_id, row.email_key, row.id);
      this.storage.stmt(MEMBER_UPSERT).run(...memberValues(row, run));
      this.storage.stmt('DELETE FROM local_changes WHERE id = ?').run(change.id);
    });
  }
}

/** Writes a chamber as a pull or a push's answer gives it; its values come from copiedChamberValues. */
const CHAMBER_UPSERT = `INSERT INTO chambers (id, name, type, hq_id, status, street, city, postal_code, country, created_at, raw, synced_run)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (id) DO UPDATE SET name = excluded.name, type = excluded.type, hq_id = excluded.hq_id,
    status = excluded.status, street = excluded.street, city = excluded.city, postal_code = excluded.postal_code,
    country = excluded.country, created_at = excluded.created_at, raw = excluded.raw, synced_run = excluded.synced_run`;
const copiedChamberValues = (c: Chamber, run: number | null) => {
  const row = copiedChamberRow(c);
  return [...chamberValues(row), row.raw, run] as const;
};
/** Writes a member as a pull or a push's answer gives it; its values come from memberValues. */
const MEMBER_UPSERT = `INSERT INTO members (id, chamber_id, name, email, email_key, phone, membership_type, status, joined_at, raw, synced_run)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (id) DO UPDATE SET chamber_id = excluded.chamber_id, name = excluded.name, email = excluded.email,
    email_key = excluded.email_key, phone = excluded.phone, membership_type = excluded.membership_type,
    status = excluded.status, joined_at = excluded.joined_at, raw = excluded.raw, synced_run = excluded.synced_run`;
/**
 * A copied member's values in MEMBER_UPSERT's order. Bound by position, as every row a pull
 * writes (a million members): node:sqlite binds by position in less than half the time it
 * takes by name (src/storage/rows.ts).
 */
const memberValues = (r: ReturnType<typeof copiedMemberRow>, run: number | null) =>
  [r.id, r.chamber_id, r.name, r.email, r.email_key, r.phone, r.membership_type, r.status, r.joined_at, r.raw, run] as const;
