import type { Database } from '../sqlite/database.js';
import type { Storage } from '../sqlite/storage.js';
import { allocate, chamberWeight } from './allocate.js';
import { generateChambers } from './chambers.js';
import { generateEvents } from './events.js';
import { generateMembers } from './members.js';
import { Prng } from './prng.js';
import { SIZES, type SeedSizeName } from './sizes.js';

export { SIZES, type SeedSizeName } from './sizes.js';

/** Used when no seed is given (the v1 release date). */
export const DEFAULT_SEED = 20240115;

export interface SeedOptions {
  size: SeedSizeName;
  /** Event statuses and every date are relative to this instant. */
  now: Date;
  /** A 32-bit integer; the same seed and `now` give byte-identical rows, ids included. */
  seed?: number;
}

export interface SeedResult {
  chambers: number;
  members: number;
  events: number;
  /**
   * The flagship chamber: the first HQ, the oldest chamber (so the first one in the default
   * `created_at` order) and the one with the most members: 750 (standard) or exactly
   * 100,000 (large). `flagshipChamberId(storage)` finds it again later.
   */
  flagshipChamberId: string;
}

const SEEDED_TABLES = ['chambers', 'members', 'events'];

/**
 * Fills an empty database with deterministic demo data: chambers, members and events.
 * All or nothing: one transaction, so a failure leaves the database as it was. The count
 * tables are kept by the schema's triggers, as for any other write.
 */
export function seedDemo(storage: Storage, opts: SeedOptions): SeedResult {
  const db = storage.db;
  if (db.prepare('SELECT 1 FROM chambers LIMIT 1').get() !== undefined) {
    throw new Error('seedDemo needs an empty database: it already holds chambers');
  }
  const plan = planDemo(opts);
  const insertChamber = db.prepare(
    `INSERT INTO chambers (id, name, type, hq_id, status, street, city, postal_code, country, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertMember = db.prepare(
    `INSERT INTO members (id, chamber_id, name, email, email_key, phone, membership_type, status, joined_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertEvent = db.prepare(
    `INSERT INTO events (id, chamber_id, title, status, starts_at, ends_at, location)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );

  let result: SeedResult | undefined;
  withBulkPragmas(db, () =>
    storage.transaction(() =>
      withoutSecondaryIndexes(db, () => {
        result = emitDemoRows(plan, {
          chamber: (c) => void insertChamber.run(c.id, c.name, c.type, c.hq_id, c.status, c.street, c.city, c.postal_code, c.country, c.created_at),
          member: (m, emailKey) =>
            void insertMember.run(m.id, m.chamber_id, m.name, m.email, emailKey, m.phone, m.membership_type, m.status, m.joined_at),
          event: (e) => void insertEvent.run(e.id, e.chamber_id, e.title, e.status, e.starts_at, e.ends_at, e.location),
        });
      }),
    ),
  );
  return result!;
}

/** What the demo data will hold: the chambers, and how many members and events each gets. */
export interface DemoPlan {
  chambers: ReturnType<typeof generateChambers>;
  memberCounts: number[];
  eventCounts: number[];
  memberPrng: Prng;
  eventPrng: Prng;
  nowMs: number;
}

export function planDemo(opts: SeedOptions): DemoPlan {
  const size = SIZES[opts.size];
  const seed = opts.seed ?? DEFAULT_SEED;
  const nowMs = opts.now.getTime();
  if (!Number.isFinite(nowMs)) throw new Error('seedDemo: `now` is not a valid date');

  // Independent streams, so e.g. the events do not change when the member rules do.
  const chambers = generateChambers(new Prng(seed, 1), size, nowMs);
  const memberPrng = new Prng(seed, 2);
  const eventPrng = new Prng(seed, 3);
  const allocPrng = new Prng(seed, 4);

  // Index 0 is the flagship with fixed numbers; the rest share the remainder unevenly.
  const others = chambers.slice(1);
  const memberCounts = [
    size.flagshipMembers,
    ...allocate(
      allocPrng,
      size.members - size.flagshipMembers,
      others.map((c) => chamberWeight(allocPrng) * (c.row.status === 'pending' ? 0.2 : 1)),
    ),
  ];
  const eventCounts = [
    size.flagshipEvents,
    ...allocate(
      allocPrng,
      size.events - size.flagshipEvents,
      others.map((_, i) => (0.3 + allocPrng.float()) * (1 + Math.sqrt(memberCounts[i + 1]!))),
    ),
  ];
  return { chambers, memberCounts, eventCounts, memberPrng, eventPrng, nowMs };
}

export interface DemoRowSink {
  chamber(row: DemoPlan['chambers'][number]['row']): void;
  member(row: Parameters<Parameters<typeof generateMembers>[4]>[0], emailKey: string): void;
  event(row: Parameters<Parameters<typeof generateEvents>[4]>[0]): void;
}

/** Hands every row of the plan to `sink`, chambers first (whatever the backend writes them to). */
export function emitDemoRows(plan: DemoPlan, sink: DemoRowSink): SeedResult {
  const { chambers, memberCounts, eventCounts, memberPrng, eventPrng, nowMs } = plan;
  const result: SeedResult = { chambers: 0, members: 0, events: 0, flagshipChamberId: chambers[0]!.row.id };
  for (const { row } of chambers) {
    sink.chamber(row);
    result.chambers++;
  }
  chambers.forEach((chamber, i) =>
    generateMembers(memberPrng, chamber, memberCounts[i]!, nowMs, (m, emailKey) => {
      sink.member(m, emailKey);
      result.members++;
    }),
  );
  chambers.forEach((chamber, i) =>
    generateEvents(eventPrng, chamber, eventCounts[i]!, nowMs, (e) => {
      sink.event(e);
      result.events++;
    }),
  );
  return result;
}

/** The flagship of a seeded database: the oldest chamber (ties broken by id). */
export function flagshipChamberId(storage: Storage): string | undefined {
  const row = storage.db.prepare('SELECT id FROM chambers ORDER BY created_at, id LIMIT 1').get() as
    | { id: string }
    | undefined;
  return row?.id;
}

/**
 * Drops the seeded tables' secondary indexes, runs `work`, and recreates them from their
 * own CREATE statements (as stored in sqlite_master, so this follows any later migration).
 * Building an index once from sorted rows is several times faster than updating eight
 * indexes per insert: the large size takes about 18 s this way and 40+ s without. Call it
 * inside a transaction, so that a failure restores the indexes with everything else. The
 * unique e-mail index is rebuilt too, and fails the seed if the generator ever broke it.
 */
function withoutSecondaryIndexes(db: Database, work: () => void): void {
  const indexes = db
    .prepare(
      `SELECT name, sql FROM sqlite_master
       WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${SEEDED_TABLES.map(() => '?').join(', ')})`,
    )
    .all(...SEEDED_TABLES) as { name: string; sql: string }[];
  for (const { name } of indexes) db.exec(`DROP INDEX "${name}"`);
  work();
  for (const { sql } of indexes) db.exec(sql);
}

/**
 * Bulk-load settings for the seed only: no fsync, a bigger page cache. Afterwards a
 * checkpoint that also truncates the WAL (the large size would otherwise leave ~700 MB).
 */
function withBulkPragmas(db: Database, work: () => void): void {
  const synchronous = db.pragma('synchronous', { simple: true }) as number;
  const cacheSize = db.pragma('cache_size', { simple: true }) as number;
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144'); // KiB: 256 MiB
  try {
    work();
  } finally {
    db.pragma(`synchronous = ${synchronous}`);
    db.pragma(`cache_size = ${cacheSize}`);
  }
  db.pragma('wal_checkpoint(TRUNCATE)'); // with the usual synchronous setting: syncs the file once
}
