import type Database from 'better-sqlite3';
import type { Chamber, Event, Member } from '../../contract/index.js';
import { chamberOf, eventOf, memberOf, rawUnlessCanonical } from '../rows.js';
import { emailKey } from '../store.js';
import type { Storage } from './storage.js';

// The SQL of offline work (README, "Working offline") on a SQLite copy: what `sync pull`
// writes, what `sync push` and `sync status` read and rewrite. Records keep their source's
// ids; `synced_run` names the pull that last saw a record (NULL: made here, not yet pushed).
//
// This connection runs without foreign-key enforcement: a remote's pages may name a
// subsidiary before its HQ, and a pushed chamber changes id under its members. The
// references are kept by the statements here instead (children are moved or removed with
// their chamber).

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

export class SyncCopy {
  readonly db: Database.Database;

  constructor(readonly storage: Storage) {
    this.db = storage.db;
    this.db.pragma('foreign_keys = OFF');
  }

  close(): void {
    this.storage.close();
  }

  // ------------------------------------------------------------------ state

  state(): SyncState {
    const rows = this.db.prepare('SELECT key, value FROM sync_state').all() as { key: string; value: string }[];
    const v = Object.fromEntries(rows.map((r) => [r.key, r.value]));
    return {
      ...(v.source ? { source: JSON.parse(v.source) as SyncSource } : {}),
      ...(v.pulled_at ? { pulledAt: v.pulled_at } : {}),
      ...(v.run ? { run: Number(v.run) } : {}),
      lastRun: Number(v.last_run ?? 0),
      ...(v.events ? { events: v.events === 'true' } : {}),
    };
  }

  private set(key: string, value: string | undefined): void {
    if (value === undefined) this.db.prepare('DELETE FROM sync_state WHERE key = ?').run(key);
    else this.db.prepare('INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  /** Chambers in a database that no pull made (demo data, a snapshot): not a copy to refresh. */
  holdsOtherData(): boolean {
    return !this.state().source && this.db.prepare('SELECT 1 FROM chambers LIMIT 1').get() !== undefined;
  }

  /** The pull to run: the interrupted one, or a new one (which forgets what an old one visited). */
  startRun(source: SyncSource): number {
    return this.storage.transaction(() => {
      const s = this.state();
      this.set('source', JSON.stringify(source));
      if (s.run) return s.run;
      const run = s.lastRun + 1;
      this.set('run', String(run));
      this.db.prepare('DELETE FROM sync_done').run();
      return run;
    });
  }

  // ------------------------------------------------------------------ pull: writes

  upsertChambers(records: Chamber[], run: number): void {
    const stmt = this.db.prepare(
      `INSERT INTO chambers (id, name, type, hq_id, status, street, city, postal_code, country, created_at, raw, synced_run)
       VALUES (@id, @name, @type, @hq_id, @status, @street, @city, @postal_code, @country, @created_at, @raw, @synced_run)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, type = excluded.type, hq_id = excluded.hq_id,
         status = excluded.status, street = excluded.street, city = excluded.city, postal_code = excluded.postal_code,
         country = excluded.country, created_at = excluded.created_at, raw = excluded.raw, synced_run = excluded.synced_run`,
    );
    this.storage.transaction(() => {
      for (const c of records) stmt.run(chamberRow(c, run));
    });
  }

  /**
   * Returns the records not written: a member whose address a pending local member of the
   * chamber already has (push will find it at the remote and take its id).
   */
  upsertMembers(records: Member[], run: number): number {
    const upsert = this.db.prepare(
      `INSERT INTO members (id, chamber_id, name, email, email_key, phone, membership_type, status, joined_at, raw, synced_run)
       VALUES (@id, @chamber_id, @name, @email, @email_key, @phone, @membership_type, @status, @joined_at, @raw, @synced_run)
       ON CONFLICT (id) DO UPDATE SET chamber_id = excluded.chamber_id, name = excluded.name, email = excluded.email,
         email_key = excluded.email_key, phone = excluded.phone, membership_type = excluded.membership_type,
         status = excluded.status, joined_at = excluded.joined_at, raw = excluded.raw, synced_run = excluded.synced_run`,
    );
    const holder = this.db.prepare('SELECT id, synced_run FROM members WHERE chamber_id = ? AND email_key = ? AND id <> ?');
    const remove = this.db.prepare('DELETE FROM members WHERE id = ?');
    let kept = 0;
    this.storage.transaction(() => {
      for (const m of records) {
        const row = memberRow(m, run);
        const other = holder.get(row.chamber_id, row.email_key, row.id) as { id: string; synced_run: number | null } | undefined;
        if (other) {
          // The address moved to another member at the remote: the old holder's row is
          // stale (it will be refreshed or removed by this pull), unless it is a local change.
          if (other.synced_run === null) {
            kept++;
            continue;
          }
          remove.run(other.id);
        }
        upsert.run(row);
      }
    });
    return kept;
  }

  upsertEvents(records: Event[], run: number): void {
    const stmt = this.db.prepare(
      `INSERT INTO events (id, chamber_id, title, status, starts_at, ends_at, location, raw, synced_run)
       VALUES (@id, @chamber_id, @title, @status, @starts_at, @ends_at, @location, @raw, @synced_run)
       ON CONFLICT (id) DO UPDATE SET chamber_id = excluded.chamber_id, title = excluded.title, status = excluded.status,
         starts_at = excluded.starts_at, ends_at = excluded.ends_at, location = excluded.location, raw = excluded.raw,
         synced_run = excluded.synced_run`,
    );
    this.storage.transaction(() => {
      for (const e of records) stmt.run({ ...eventOf(e), raw: rawUnlessCanonical(e, eventOf(e)), synced_run: run });
    });
  }

  /** The chambers this pull saw and has not finished yet, in id order, after `afterId`. */
  chambersToVisit(run: number, afterId: string, limit: number): string[] {
    return this.db
      .prepare(
        `SELECT id FROM chambers WHERE synced_run = ? AND id > ? AND id NOT IN (SELECT chamber_id FROM sync_done) ORDER BY id LIMIT ?`,
      )
      .pluck()
      .all(run, afterId, limit) as string[];
  }

  /** How many chambers this pull saw, and how many of them it has finished. */
  runProgress(run: number): { seen: number; done: number } {
    const seen = this.db.prepare('SELECT count(*) FROM chambers WHERE synced_run = ?').pluck().get(run) as number;
    const done = this.db.prepare('SELECT count(*) FROM sync_done').pluck().get() as number;
    return { seen, done };
  }

  /** A chamber's members (and events) are all in: what the pull did not see of them goes. */
  finishChamber(chamberId: string, run: number, events: boolean): void {
    this.storage.transaction(() => {
      this.db.prepare('DELETE FROM members WHERE chamber_id = ? AND synced_run IS NOT NULL AND synced_run <> ?').run(chamberId, run);
      if (events) this.db.prepare('DELETE FROM events WHERE chamber_id = ? AND synced_run IS NOT NULL AND synced_run <> ?').run(chamberId, run);
      this.db.prepare('INSERT OR IGNORE INTO sync_done (chamber_id) VALUES (?)').run(chamberId);
    });
  }

  /**
   * The pull is complete: chambers it did not see are gone at the remote and go here too,
   * with their members and events, except those that pending local changes refer to (push
   * reports them). Returns the ids kept for that reason.
   */
  finishRun(run: number, pulledAt: string, events: boolean): string[] {
    return this.storage.transaction(() => {
      const stale = this.db
        .prepare('SELECT id FROM chambers WHERE synced_run IS NOT NULL AND synced_run <> ?')
        .pluck()
        .all(run) as string[];
      const kept = stale.filter((id) => !this.removeUnlessReferenced(id));
      this.set('last_run', String(run));
      this.set('run', undefined);
      this.set('pulled_at', pulledAt);
      this.set('events', String(events));
      this.db.prepare('DELETE FROM sync_done').run();
      return kept;
    });
  }

  /**
   * Removes a chamber gone at the remote, unless a pending local change refers to it (a
   * member added to it, a subsidiary of it). Returns whether it was removed.
   */
  removeUnlessReferenced(id: string): boolean {
    const referenced = this.db
      .prepare(
        `SELECT 1 FROM local_changes WHERE chamber_id = ?1 OR (kind = 'chamber' AND json_extract(body, '$.hq_id') = ?1) LIMIT 1`,
      )
      .get({ 1: id });
    if (referenced) return false;
    this.removeChamber(id);
    return true;
  }

  /** A chamber gone at the remote, with its members and events (not local changes' records). */
  removeChamber(id: string): void {
    this.db.prepare('DELETE FROM members WHERE chamber_id = ? AND synced_run IS NOT NULL').run(id);
    this.db.prepare('DELETE FROM events WHERE chamber_id = ? AND synced_run IS NOT NULL').run(id);
    this.db.prepare('DELETE FROM chambers WHERE id = ? AND synced_run IS NOT NULL').run(id);
  }

  counts(): CopyCounts {
    const sum = (table: string) => this.db.prepare(`SELECT coalesce(sum(n), 0) FROM ${table}`).pluck().get() as number;
    return { chambers: sum('chamber_counts'), members: sum('member_counts'), events: sum('event_counts') };
  }

  // ------------------------------------------------------------------ local changes

  changes(): LocalChange[] {
    return this.db.prepare('SELECT * FROM local_changes ORDER BY seq').all() as LocalChange[];
  }

  change(id: string): LocalChange | undefined {
    return this.db.prepare('SELECT * FROM local_changes WHERE id = ?').get(id) as LocalChange | undefined;
  }

  /** The pending change that made a record, if one did (a local chamber a change refers to). */
  changeFor(recordId: string): LocalChange | undefined {
    return this.db.prepare('SELECT * FROM local_changes WHERE record_id = ?').get(recordId) as LocalChange | undefined;
  }

  /**
   * Drops a change and the record it made. Refused (the ids of the changes in the way)
   * while other pending changes refer to that record: a member of the chamber, a subsidiary.
   */
  discard(changeId: string): 'discarded' | 'missing' | { dependents: string[] } {
    return this.storage.transaction(() => {
      const change = this.db.prepare('SELECT * FROM local_changes WHERE id = ?').get(changeId) as LocalChange | undefined;
      if (!change) return 'missing';
      if (change.kind === 'chamber') {
        const dependents = this.db
          .prepare(
            `SELECT id FROM local_changes WHERE chamber_id = ? OR (kind = 'chamber' AND json_extract(body, '$.hq_id') = ?) ORDER BY seq`,
          )
          .pluck()
          .all(change.record_id, change.record_id) as string[];
        if (dependents.length) return { dependents };
        this.db.prepare('DELETE FROM chambers WHERE id = ? AND synced_run IS NULL').run(change.record_id);
      } else {
        this.db.prepare('DELETE FROM members WHERE id = ? AND synced_run IS NULL').run(change.record_id);
      }
      this.db.prepare('DELETE FROM local_changes WHERE id = ?').run(changeId);
      return 'discarded';
    });
  }

  /** Committed before a POST; `remoteBefore` is kept from the first attempt on. */
  markAttempted(changeId: string, at: string, remoteBefore?: number): void {
    this.db
      .prepare('UPDATE local_changes SET attempted_at = ?, remote_before = coalesce(remote_before, ?) WHERE id = ?')
      .run(at, remoteBefore ?? null, changeId);
  }

  markRejected(changeId: string, error: string): void {
    this.db.prepare("UPDATE local_changes SET state = 'rejected', error = ? WHERE id = ?").run(error, changeId);
  }

  /** A change that may be tried again (a held one whose chamber went through, say). */
  markPending(changeId: string): void {
    this.db.prepare("UPDATE local_changes SET state = 'pending', error = NULL WHERE id = ?").run(changeId);
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
        this.db.prepare('UPDATE members SET chamber_id = ? WHERE chamber_id = ?').run(remote.id, local);
        this.db.prepare('UPDATE events SET chamber_id = ? WHERE chamber_id = ?').run(remote.id, local);
        this.db.prepare('UPDATE chambers SET hq_id = ? WHERE hq_id = ?').run(remote.id, local);
        this.db.prepare('UPDATE local_changes SET chamber_id = ? WHERE chamber_id = ?').run(remote.id, local);
        this.db
          .prepare(`UPDATE local_changes SET body = json_set(body, '$.hq_id', ?) WHERE kind = 'chamber' AND json_extract(body, '$.hq_id') = ?`)
          .run(remote.id, local);
        this.db.prepare('DELETE FROM chambers WHERE id = ?').run(local);
      }
      this.db
        .prepare(
          `INSERT INTO chambers (id, name, type, hq_id, status, street, city, postal_code, country, created_at, raw, synced_run)
           VALUES (@id, @name, @type, @hq_id, @status, @street, @city, @postal_code, @country, @created_at, @raw, @synced_run)
           ON CONFLICT (id) DO UPDATE SET name = excluded.name, type = excluded.type, hq_id = excluded.hq_id,
             status = excluded.status, street = excluded.street, city = excluded.city, postal_code = excluded.postal_code,
             country = excluded.country, created_at = excluded.created_at, raw = excluded.raw, synced_run = excluded.synced_run`,
        )
        .run(chamberRow(remote, run));
      this.db.prepare('DELETE FROM local_changes WHERE id = ?').run(change.id);
    });
  }

  /** The remote holds the member now: the copy keeps the remote's record instead of the local one. */
  settleMember(change: LocalChange, remote: Member): void {
    const run = this.state().lastRun || null;
    this.storage.transaction(() => {
      this.db.prepare('DELETE FROM members WHERE id = ?').run(change.record_id);
      const row = memberRow(remote, run);
      // a stale copy of the remote's member (an earlier pull) gives way
      this.db.prepare('DELETE FROM members WHERE chamber_id = ? AND email_key = ? AND id <> ?').run(row.chamber_id, row.email_key, row.id);
      this.db
        .prepare(
          `INSERT INTO members (id, chamber_id, name, email, email_key, phone, membership_type, status, joined_at, raw, synced_run)
           VALUES (@id, @chamber_id, @name, @email, @email_key, @phone, @membership_type, @status, @joined_at, @raw, @synced_run)
           ON CONFLICT (id) DO UPDATE SET chamber_id = excluded.chamber_id, name = excluded.name, email = excluded.email,
             email_key = excluded.email_key, phone = excluded.phone, membership_type = excluded.membership_type,
             status = excluded.status, joined_at = excluded.joined_at, raw = excluded.raw, synced_run = excluded.synced_run`,
        )
        .run(row);
      this.db.prepare('DELETE FROM local_changes WHERE id = ?').run(change.id);
    });
  }
}

function chamberRow(c: Chamber, run: number | null) {
  const known = chamberOf(c);
  return {
    id: c.id,
    name: c.name,
    type: c.type,
    hq_id: c.hq_id,
    status: c.status,
    street: c.address.street,
    city: c.address.city,
    postal_code: c.address.postal_code,
    country: c.address.country,
    created_at: c.created_at,
    raw: rawUnlessCanonical(c, known),
    synced_run: run,
  };
}

function memberRow(m: Member, run: number | null) {
  return { ...memberOf(m), email_key: emailKey(m.email), raw: rawUnlessCanonical(m, memberOf(m)), synced_run: run };
}
