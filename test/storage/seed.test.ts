import { afterAll, describe, expect, it } from 'vitest';
import {
  CHAMBER_STATUSES,
  ChamberCreate,
  Email,
  EVENT_STATUSES,
  MEMBER_STATUSES,
  MEMBERSHIP_TYPES,
  Phone,
} from '../../src/contract/index.js';
import { DEFAULT_SEED, flagshipChamberId, seedDemo, SIZES } from '../../src/storage/seed/index.js';
import { Storage } from '../../src/storage/sqlite/storage.js';

// The standard demo data, seeded once into an in-memory database and read by most tests.
// (The large size takes ~20 s, so it is measured by bench/seed.ts rather than tested here.)

const NOW = new Date('2025-06-01T12:00:00.000Z');
const nowIso = NOW.toISOString();
const DAY = 86_400_000;

const stores: Storage[] = [];
function seeded(seed?: number, now = NOW) {
  const storage = new Storage(':memory:');
  stores.push(storage);
  const result = seedDemo(storage, { size: 'standard', now, ...(seed === undefined ? {} : { seed }) });
  return { storage, result };
}
afterAll(() => stores.forEach((s) => s.close()));

const { storage, result } = seeded();
const all = <T>(sql: string, ...args: unknown[]) => storage.db.prepare(sql).all(...args) as T[];
const one = <T>(sql: string, ...args: unknown[]) => storage.db.prepare(sql).get(...args) as T;
const column = (sql: string) => storage.db.prepare(sql).pluck().all() as string[];

/** Every row of every seeded table (and of the count tables), in storage order. */
function dump(s: Storage) {
  const tables = ['chambers', 'members', 'events', 'chamber_counts', 'member_counts', 'event_counts'];
  return Object.fromEntries(tables.map((t) => [t, s.db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all()]));
}

describe('seedDemo: sizes and determinism', () => {
  it('makes the standard size: 40 HQs, 160 subsidiaries, 5000 members, 1000 events', () => {
    expect(result).toEqual({ chambers: 200, members: 5000, events: 1000, flagshipChamberId: expect.any(String) });
    expect(one<{ n: number }>("SELECT count(*) AS n FROM chambers WHERE type = 'hq'").n).toBe(SIZES.standard.hqs);
    expect(one<{ n: number }>("SELECT count(*) AS n FROM chambers WHERE type = 'subsidiary'").n).toBe(160);
    expect(one<{ n: number }>('SELECT count(*) AS n FROM members').n).toBe(5000);
    expect(one<{ n: number }>('SELECT count(*) AS n FROM events').n).toBe(1000);
  });

  it('gives identical rows, ids included, for the same seed and now', () => {
    const again = seeded(DEFAULT_SEED).storage;
    expect(dump(again)).toEqual(dump(storage));
    // Insertion order too, not just the set of rows.
    const ids = (s: Storage) => s.db.prepare('SELECT id FROM members ORDER BY rowid').pluck().all();
    expect(ids(again)).toEqual(ids(storage));
  });

  it('gives different data for a different seed', () => {
    const other = dump(seeded(7).storage);
    const mine = dump(storage);
    const idsOf = (rows: unknown[]) => new Set(rows.map((r) => (r as { id: string }).id));
    const shared = [...idsOf(other.chambers!)].filter((id) => idsOf(mine.chambers!).has(id));
    expect(shared).toEqual([]);
    expect(other.members!.map((m) => (m as { name: string }).name)).not.toEqual(
      mine.members!.map((m) => (m as { name: string }).name),
    );
  });

  it('draws ids from the PRNG in the usual shapes', () => {
    for (const [table, prefix] of [['chambers', 'ch'], ['members', 'mb'], ['events', 'ev']] as const) {
      const ids = column(`SELECT id FROM ${table}`);
      expect(ids.every((id) => new RegExp(`^${prefix}_[A-Za-z0-9]{16}$`).test(id)), table).toBe(true);
    }
  });

  it('refuses a database that already holds chambers, and leaves it as it was', () => {
    const before = dump(storage);
    expect(() => seedDemo(storage, { size: 'standard', now: NOW })).toThrow(/empty database/);
    expect(dump(storage)).toEqual(before);
  });

  it('leaves the schema (indexes, triggers) and the connection settings as they were', () => {
    const fresh = new Storage(':memory:');
    stores.push(fresh);
    const schema = (s: Storage) => s.db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all();
    const settings = (s: Storage) => [s.db.pragma('synchronous', { simple: true }), s.db.pragma('cache_size', { simple: true })];
    const before = { schema: schema(fresh), settings: settings(fresh) };
    seedDemo(fresh, { size: 'standard', now: NOW, seed: 3 });
    expect({ schema: schema(fresh), settings: settings(fresh) }).toEqual(before);
    expect(fresh.db.pragma('foreign_key_check')).toEqual([]);
    expect(fresh.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});

describe('seedDemo: chambers', () => {
  it('has every type and status, mostly active', () => {
    const byStatus = Object.fromEntries(
      all<{ status: string; n: number }>('SELECT status, count(*) AS n FROM chambers GROUP BY status').map((r) => [r.status, r.n]),
    );
    expect(Object.keys(byStatus).sort()).toEqual([...CHAMBER_STATUSES].sort());
    expect(byStatus.active).toBeGreaterThan(200 / 2);
  });

  it('keeps the hq_id rules: null on HQs, an older HQ on every subsidiary', () => {
    expect(one<{ n: number }>("SELECT count(*) AS n FROM chambers WHERE type = 'hq' AND hq_id IS NOT NULL").n).toBe(0);
    const subs = all<{ hq_type: string | null; created_at: string; hq_created: string }>(
      `SELECT h.type AS hq_type, s.created_at, h.created_at AS hq_created
       FROM chambers s LEFT JOIN chambers h ON h.id = s.hq_id WHERE s.type = 'subsidiary'`,
    );
    expect(subs).toHaveLength(160);
    expect(subs.filter((s) => s.hq_type !== 'hq')).toEqual([]);
    expect(subs.filter((s) => s.created_at <= s.hq_created)).toEqual([]);
  });

  it('has real-looking, valid addresses and names', () => {
    const rows = all<Record<string, string | null>>('SELECT * FROM chambers');
    for (const r of rows) {
      const input = { name: r.name, type: r.type, hq_id: r.hq_id, address: { street: r.street, city: r.city, postal_code: r.postal_code, country: r.country } };
      expect(ChamberCreate.safeParse(input).success, JSON.stringify(input)).toBe(true);
    }
    expect(new Set(rows.map((r) => r.name)).size).toBe(rows.length);
    expect(new Set(rows.map((r) => r.country)).size).toBeGreaterThan(15);
    expect(rows.some((r) => /Chamber of Commerce$/.test(r.name!))).toBe(true);
    // Postal codes are null where the country has none in everyday use, and now and then.
    expect(rows.filter((r) => ['HK', 'AE'].includes(r.country!) && r.postal_code !== null)).toEqual([]);
    expect(rows.some((r) => r.postal_code === null) && rows.some((r) => r.postal_code !== null)).toBe(true);
  });

  it('has the flagship first in created_at order, active, with the most members', () => {
    const first = one<{ id: string; type: string; status: string }>('SELECT id, type, status FROM chambers ORDER BY created_at, id LIMIT 1');
    expect(first).toEqual({ id: result.flagshipChamberId, type: 'hq', status: 'active' });
    expect(flagshipChamberId(storage)).toBe(result.flagshipChamberId);
    const top = one<{ chamber_id: string; n: number }>('SELECT chamber_id, count(*) AS n FROM members GROUP BY chamber_id ORDER BY n DESC LIMIT 1');
    expect(top).toEqual({ chamber_id: result.flagshipChamberId, n: SIZES.standard.flagshipMembers });
    expect(storage.listMembers(result.flagshipChamberId, { page: 8, perPage: 100 }).total).toBe(750);
  });
});

describe('seedDemo: members', () => {
  it('has every status and membership type', () => {
    expect(column('SELECT DISTINCT status FROM members ORDER BY 1')).toEqual([...MEMBER_STATUSES].sort());
    expect(column('SELECT DISTINCT membership_type FROM members ORDER BY 1')).toEqual([...MEMBERSHIP_TYPES].sort());
  });

  it('spreads members unevenly: some chambers with several hundred, some with none', () => {
    const perChamber = column(
      'SELECT (SELECT count(*) FROM members m WHERE m.chamber_id = c.id) FROM chambers c',
    ) as unknown as number[];
    expect(perChamber.filter((n) => n >= 200).length).toBeGreaterThanOrEqual(3);
    expect(perChamber.filter((n) => n === 0).length).toBeGreaterThan(0);
  });

  it('has e-mails unique per chamber ignoring case, stored with their lower-case key', () => {
    const dupes = all('SELECT chamber_id, lower(email) FROM members GROUP BY 1, 2 HAVING count(*) > 1');
    expect(dupes).toEqual([]);
    expect(one<{ n: number }>('SELECT count(*) AS n FROM members WHERE email_key IS NOT lower(email)').n).toBe(0);
    expect(one<{ n: number }>('SELECT count(*) AS n FROM members WHERE email <> lower(email)').n).toBeGreaterThan(0);
  });

  it('has valid e-mails and +CC phone numbers, some phones null', () => {
    const rows = all<{ email: string; phone: string | null }>('SELECT email, phone FROM members');
    expect(rows.filter((r) => !Email.safeParse(r.email).success)).toEqual([]);
    const phones = rows.map((r) => r.phone).filter((p) => p !== null);
    expect(phones.length).toBeLessThan(rows.length);
    expect(phones.filter((p) => !/^\+\d{1,3} /.test(p) || !Phone.safeParse(p).success)).toEqual([]);
  });

  it('has joining times in the past, after the chamber was created, in toISOString form', () => {
    const rows = all<{ joined_at: string; created_at: string }>(
      'SELECT m.joined_at, c.created_at FROM members m JOIN chambers c ON c.id = m.chamber_id',
    );
    expect(rows.filter((r) => !(r.created_at <= r.joined_at && r.joined_at < nowIso))).toEqual([]);
    expect(rows.filter((r) => new Date(r.joined_at).toISOString() !== r.joined_at)).toEqual([]);
    const created = column('SELECT created_at FROM chambers');
    expect(created.filter((t) => !(t < nowIso) || new Date(t).toISOString() !== t)).toEqual([]);
  });
});

describe('seedDemo: events', () => {
  const events = all<{ status: string; starts_at: string; ends_at: string; location: string | null }>('SELECT * FROM events');

  it('has every status, and events both in the past and in the future', () => {
    expect(new Set(events.map((e) => e.status))).toEqual(new Set(EVENT_STATUSES));
    expect(events.some((e) => e.ends_at < nowIso)).toBe(true);
    expect(events.some((e) => e.starts_at > nowIso)).toBe(true);
    const canceled = events.filter((e) => e.status === 'canceled');
    expect(canceled.some((e) => e.ends_at < nowIso) && canceled.some((e) => e.starts_at > nowIso)).toBe(true);
  });

  it('has a status consistent with the dates relative to now', () => {
    const wrong = events.filter(
      (e) =>
        (e.status === 'past' && !(e.ends_at < nowIso)) ||
        (e.status === 'upcoming' && !(e.starts_at > nowIso)) ||
        (e.status !== 'canceled' && e.starts_at <= nowIso && e.ends_at >= nowIso),
    );
    expect(wrong).toEqual([]);
  });

  it('ends no earlier than it starts, within about a year either side of now', () => {
    const lo = new Date(NOW.getTime() - 366 * DAY).toISOString();
    const hi = new Date(NOW.getTime() + 372 * DAY).toISOString();
    expect(events.filter((e) => e.ends_at < e.starts_at)).toEqual([]);
    expect(events.filter((e) => e.starts_at < lo || e.ends_at > hi)).toEqual([]);
    expect(events.filter((e) => new Date(e.starts_at).toISOString() !== e.starts_at)).toEqual([]);
    expect(events.some((e) => e.location === null) && events.some((e) => e.location !== null)).toBe(true);
  });

  it('moves with now: statuses are worked out against the given instant', () => {
    const later = new Date(NOW.getTime() + 200 * DAY);
    const { storage: s } = seeded(DEFAULT_SEED, later);
    const laterIso = later.toISOString();
    const wrong = s.db
      .prepare(`SELECT count(*) FROM events WHERE (status = 'past' AND ends_at >= ?) OR (status = 'upcoming' AND starts_at <= ?)`)
      .pluck()
      .get(laterIso, laterIso);
    expect(wrong).toBe(0);
    const earliest = (x: Storage) => x.db.prepare('SELECT min(starts_at) FROM events').pluck().get() as string;
    expect(earliest(s) >= new Date(later.getTime() - 366 * DAY).toISOString()).toBe(true);
    expect(earliest(s) > earliest(storage)).toBe(true);
  });
});

describe('seedDemo: count tables', () => {
  it('match count(*) by group for chambers, members and events', () => {
    const pairs = [
      ['SELECT type, status, n FROM chamber_counts WHERE n <> 0', 'SELECT type, status, count(*) AS n FROM chambers GROUP BY 1, 2'],
      ['SELECT chamber_id, status, n FROM member_counts WHERE n <> 0', 'SELECT chamber_id, status, count(*) AS n FROM members GROUP BY 1, 2'],
      ['SELECT chamber_id, status, n FROM event_counts WHERE n <> 0', 'SELECT chamber_id, status, count(*) AS n FROM events GROUP BY 1, 2'],
    ];
    for (const [kept, counted] of pairs) {
      const counts = all(`${counted} ORDER BY 1, 2`);
      expect(counts.length).toBeGreaterThan(2);
      expect(all(`${kept} ORDER BY 1, 2`)).toEqual(counts);
    }
  });
});
