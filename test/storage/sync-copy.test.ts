import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/storage/sqlite/database.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SyncCopy } from '../../src/storage/sqlite/sync-copy.js';
import { Storage } from '../../src/storage/sqlite/storage.js';
import { remoteChamber, remoteMember } from '../helpers/remote-records.js';

// The SQLite side of offline work, statement by statement (the end-to-end tests run it
// through real servers: test/e2e/sync*.test.ts).
let storage: Storage;
let copy: SyncCopy;
beforeEach(() => {
  storage = new Storage(':memory:');
  copy = new SyncCopy(storage);
});
afterEach(() => copy.close());

const chamber = remoteChamber;
const member = remoteMember;
const read = (sql: string, ...args: unknown[]) => storage.db.prepare(sql).all(...args);

describe('SyncCopy', () => {
  it('a copy is never "unused": serve does not seed demo data into the copy of an empty directory', () => {
    expect(storage.isUnused()).toBe(true);
    copy.startRun({ profile: 'p', base_url: 'http://remote' });
    expect(storage.isUnused()).toBe(false);
  });

  it('keeps a record as its source sent it only when the columns would not give it back', () => {
    const run = copy.startRun({ profile: 'p', base_url: 'http://remote' });
    copy.upsertChambers([chamber('a'), chamber('b', { tags: ['x'] })], run);
    copy.flush();
    expect(read('SELECT id, raw FROM chambers ORDER BY id')).toEqual([
      { id: 'a', raw: null },
      { id: 'b', raw: JSON.stringify(chamber('b', { tags: ['x'] })) },
    ]);
    expect(JSON.parse(storage.getChamber('b')!)).toEqual(chamber('b', { tags: ['x'] }));
  });

  it('commits nothing before a flush, and a chamber is marked finished only with its rows', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chamberctl-sync-copy-'));
    const fileCopy = new SyncCopy(new Storage(join(dir, 'copy.db')));
    const other = openDatabase(join(dir, 'copy.db'), { readOnly: true }); // what another connection sees
    try {
      const run = fileCopy.startRun({ profile: 'p', base_url: 'http://remote' });
      fileCopy.upsertChambers([chamber('a')], run);
      fileCopy.upsertMembers([member('m1', 'a', 'x@example.org')], run);
      fileCopy.finishChamber('a', run, true);
      expect(other.prepare('SELECT * FROM sync_done').all()).toEqual([]);
      expect(other.prepare('SELECT id FROM members').all()).toEqual([]);
      fileCopy.flush();
      expect(other.prepare('SELECT chamber_id FROM sync_done').all()).toEqual([{ chamber_id: 'a' }]);
      expect(other.prepare('SELECT id FROM members').all()).toEqual([{ id: 'm1' }]);
    } finally {
      other.close();
      fileCopy.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a write that fails undoes its whole batch: the chambers finished in it are not marked', () => {
    const run = copy.startRun({ profile: 'p', base_url: 'http://remote' });
    copy.upsertChambers([chamber('a')], run);
    copy.finishChamber('a', run, true);
    // a member without a chamber_id breaks the NOT NULL rule
    expect(() => copy.upsertMembers([{ ...member('m1', 'a', 'x@example.org'), chamber_id: null as never }], run)).toThrow(/NOT NULL/);
    expect(storage.db.inTransaction).toBe(false);
    expect(read('SELECT * FROM sync_done')).toEqual([]);
    expect(read('SELECT id FROM chambers')).toEqual([]);
    copy.upsertChambers([chamber('b')], run); // and the next batch goes on
    copy.flush();
    expect(read('SELECT id FROM chambers')).toEqual([{ id: 'b' }]);
  });

  it("an address that moved to another member replaces the stale holder; a pending local member's is held back", () => {
    let run = copy.startRun({ profile: 'p', base_url: 'http://remote' });
    copy.upsertChambers([chamber('a')], run);
    copy.upsertMembers([member('m1', 'a', 'x@example.org')], run);
    copy.finishRun(run, '2025-01-03T00:00:00.000Z', true);
    // the remote now gives x@ to m2 (m1 changed its address)
    run = copy.startRun({ profile: 'p', base_url: 'http://remote' });
    copy.upsertMembers([member('m2', 'a', 'X@example.org')], run);
    copy.flush();
    expect(read('SELECT id FROM members ORDER BY id')).toEqual([{ id: 'm2' }]);
    // a local change with the address of a remote member: the remote one waits for push
    storage.addMember({ chamberId: 'a', input: { name: 'Local', email: 'local@example.org', phone: null, membership_type: 'standard' }, now: new Date(), audit: null });
    copy.upsertMembers([member('m3', 'a', 'LOCAL@example.org')], run);
    copy.flush();
    expect(copy.heldBack).toBe(1);
    expect(read("SELECT count(*) AS n FROM members WHERE email_key = 'local@example.org'")).toEqual([{ n: 1 }]);
  });

  it('a finished pull removes what the remote no longer has, but not what pending changes need', () => {
    let run = copy.startRun({ profile: 'p', base_url: 'http://remote' });
    copy.upsertChambers([chamber('gone'), chamber('needed'), chamber('kept')], run);
    copy.finishRun(run, '2025-01-03T00:00:00.000Z', true);
    storage.addMember({ chamberId: 'needed', input: { name: 'Local', email: 'l@example.org', phone: null, membership_type: 'standard' }, now: new Date(), audit: null });
    run = copy.startRun({ profile: 'p', base_url: 'http://remote' });
    copy.upsertChambers([chamber('kept')], run);
    expect(copy.finishRun(run, '2025-01-04T00:00:00.000Z', true)).toEqual(['needed']);
    expect(read('SELECT id FROM chambers ORDER BY id')).toEqual([{ id: 'kept' }, { id: 'needed' }]);
    expect(copy.state()).toMatchObject({ pulledAt: '2025-01-04T00:00:00.000Z', lastRun: run });
  });

  it('records what serve creates in a copy, and discards a change with the record it made, dependents first', () => {
    const run = copy.startRun({ profile: 'p', base_url: 'http://remote' });
    copy.finishRun(run, '2025-01-03T00:00:00.000Z', true);
    const hq = storage.createChamber({ input: { name: 'Local HQ', type: 'hq', hq_id: null, address: { street: 's', city: 'c', postal_code: null, country: 'BE' } }, now: new Date(), audit: null });
    const m = storage.addMember({ chamberId: hq.id, input: { name: 'A', email: 'a@example.org', phone: null, membership_type: 'standard' }, now: new Date(), audit: null });
    expect(m).not.toBe('duplicate');
    const [c1, c2] = copy.changes();
    expect([c1!.kind, c2!.kind]).toEqual(['chamber', 'member']);
    expect(copy.discard(c1!.id)).toEqual({ dependents: [c2!.id] });
    expect(copy.discard(c2!.id)).toBe('discarded');
    expect(copy.discard(c1!.id)).toBe('discarded');
    expect(copy.discard(c1!.id)).toBe('missing');
    expect(read('SELECT count(*) AS n FROM chambers')).toEqual([{ n: 0 }]);
  });
});
