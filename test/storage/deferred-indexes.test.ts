// A first pull into an empty copy builds its list indexes at the end (deferred-indexes.ts);
// a stopped one leaves them to whoever opens the copy next.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasDeferredIndexes } from '../../src/storage/sqlite/deferred-indexes.js';
import { Storage } from '../../src/storage/sqlite/storage.js';
import { SyncCopy } from '../../src/storage/sqlite/sync-copy.js';
import { remoteChamber, remoteEvent, remoteMember } from '../helpers/remote-records.js';

let dir: string;
beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'chamberctl-deferred-'))));
afterAll(() => rm(dir, { recursive: true, force: true }));

const source = { profile: 'p', base_url: 'http://remote' };
/** The schema objects of the directory's tables, as a new database has them. */
const schemaOf = (s: Storage) =>
  s.db
    .prepare("SELECT type, name, sql FROM sqlite_master WHERE tbl_name IN ('chambers', 'members', 'events') ORDER BY type, name")
    .all();
const totals = (s: Storage) => ({
  chambers: s.db.prepare('SELECT type, status, n FROM chamber_counts WHERE n > 0 ORDER BY type, status').all(),
  members: s.db.prepare('SELECT chamber_id, status, n FROM member_counts WHERE n > 0 ORDER BY chamber_id, status').all(),
  events: s.db.prepare('SELECT chamber_id, status, n FROM event_counts WHERE n > 0 ORDER BY chamber_id, status').all(),
});
const counted = (s: Storage) => ({
  chambers: s.db.prepare('SELECT type, status, count(*) AS n FROM chambers GROUP BY type, status ORDER BY type, status').all(),
  members: s.db.prepare('SELECT chamber_id, status, count(*) AS n FROM members GROUP BY chamber_id, status ORDER BY chamber_id, status').all(),
  events: s.db.prepare('SELECT chamber_id, status, count(*) AS n FROM events GROUP BY chamber_id, status ORDER BY chamber_id, status').all(),
});

/** A run of a pull into `copy`: two chambers, three members, three events, left unfinished. */
function pullSome(copy: SyncCopy): number {
  const run = copy.startRun(source);
  copy.upsertChambers([remoteChamber('a'), remoteChamber('b', { status: 'inactive' })], run);
  copy.upsertMembers([remoteMember('m1', 'a', 'x@example.org'), remoteMember('m2', 'a', 'y@example.org'), remoteMember('m3', 'b', 'x@example.org')], run);
  copy.upsertEvents([remoteEvent('e1', 'a'), remoteEvent('e2', 'a', 'canceled'), remoteEvent('e3', 'b')], run);
  copy.finishChamber('a', run, true);
  copy.flush();
  return run;
}

describe('a first pull loads in bulk', () => {
  const fresh = () => {
    const s = new Storage(':memory:');
    const schema = schemaOf(s);
    s.close();
    return schema;
  };

  it('drops the list indexes and count triggers of an empty copy, and builds them and the totals when it finishes', () => {
    const copy = new SyncCopy(new Storage(join(dir, 'first.db')));
    const run = pullSome(copy);
    const during = schemaOf(copy.storage).map((o) => (o as { name: string }).name);
    expect(during).not.toContain('members_by_name');
    expect(during).not.toContain('chambers_by_created');
    expect(during).not.toContain('members_count_insert');
    expect(during).toContain('members_email_per_chamber'); // the pull's address rule needs it
    expect(during).not.toContain('events_by_status_start');
    expect(during).not.toContain('events_by_live_start');
    expect(during).not.toContain('events_count_insert');
    expect(during).toContain('events_by_start'); // a finished chamber's stale events are found by chamber_id
    expect(hasDeferredIndexes(copy.db)).toBe(true);

    copy.finishRun(run, '2025-01-03T00:00:00.000Z', true);
    expect(hasDeferredIndexes(copy.db)).toBe(false);
    expect(schemaOf(copy.storage)).toEqual(fresh());
    expect(totals(copy.storage)).toEqual(counted(copy.storage));
    expect(totals(copy.storage).members).toHaveLength(2);
    expect(totals(copy.storage).events).toHaveLength(3);
    copy.close();
  });

  it('a stopped pull leaves them to the next opening of the copy, unless that is a pull going on with it', () => {
    const path = join(dir, 'stopped.db');
    const first = new SyncCopy(new Storage(path));
    pullSome(first);
    first.close(); // as if killed: the run is not finished

    const resumed = new Storage(path, { keepDeferredIndexes: true });
    expect(hasDeferredIndexes(resumed.db)).toBe(true);
    resumed.close();

    const served = new Storage(path);
    expect(hasDeferredIndexes(served.db)).toBe(false);
    expect(schemaOf(served)).toEqual(fresh());
    expect(totals(served)).toEqual(counted(served));
    // triggers keep the totals from here on
    served.addMember({ chamberId: 'b', input: { name: 'Local', email: 'local@example.org', phone: null, membership_type: 'standard' }, now: new Date(), audit: null });
    expect(totals(served)).toEqual(counted(served));
    served.close();
  });

  it('a later pull into a copy that holds records keeps every index', () => {
    const copy = new SyncCopy(new Storage(join(dir, 'refresh.db')));
    copy.finishRun(pullSome(copy), '2025-01-03T00:00:00.000Z', true);
    pullSome(copy);
    expect(hasDeferredIndexes(copy.db)).toBe(false);
    expect(schemaOf(copy.storage)).toEqual(fresh());
    copy.close();
  });
});
