// serve --cache-size: SQLite's page cache and memory map, bounded (docs/operations/serve.md#memory); and
// statement journals kept in memory rather than in temp files.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteSnapshotIo } from '../../src/storage/sqlite/snapshot-io.js';
import { Storage } from '../../src/storage/sqlite/storage.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chamberctl-cache-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const settings = (s: Storage) => ({
  cacheKiB: -(s.db.pragma('cache_size', { simple: true }) as number),
  mmapBytes: s.db.pragma('mmap_size', { simple: true }) as number,
});

describe('SQLite memory settings', () => {
  it('default: a 64 MiB page cache and a map of up to 1 GiB', () => {
    const s = new Storage(join(dir, 'default.db'));
    expect(settings(s)).toEqual({ cacheKiB: 64 * 1024, mmapBytes: 1024 * 1024 * 1024 });
    s.close();
  });

  it('cacheMiB bounds both', () => {
    const s = new Storage(join(dir, 'small.db'), { cacheMiB: 8 });
    expect(settings(s)).toEqual({ cacheKiB: 8 * 1024, mmapBytes: 8 * 1024 * 1024 });
    s.close();
  });

  it('mmapMiB sets the map alone (the copy a pull writes maps nothing)', () => {
    const s = new Storage(join(dir, 'nomap.db'), { cacheMiB: 32, mmapMiB: 0 });
    expect(settings(s)).toEqual({ cacheKiB: 32 * 1024, mmapBytes: 0 });
    s.close();
  });

  it('keeps statement journals in memory: trigger-firing inserts in one transaction write nothing before the commit', () => {
    const s = new Storage(join(dir, 'journal.db'));
    const written = () => Number(/^wchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))![1]);
    const now = new Date('2026-01-01T00:00:00.000Z');
    const chamber = s.createChamber({ input: { name: 'Journal Chamber', type: 'hq', address: { street: 'A 1', city: 'B', postal_code: null, country: 'DE' } }, now, audit: null });
    s.db.exec('BEGIN');
    const before = written();
    // each insert also updates member_counts (a trigger), so each needs a statement journal;
    // in a temp file those were ~40 KB of pwrite per insert once past 64 KiB
    for (let i = 0; i < 3000; i++) {
      s.addMember({ chamberId: chamber.id, input: { name: `Member ${i}`, email: `m${i}@example.org`, phone: null, membership_type: 'standard' }, now, audit: null });
    }
    const during = written() - before;
    s.db.exec('COMMIT');
    expect(during).toBeLessThan(1 << 20); // the page cache holds the transaction: nothing written yet
    expect(s.db.pragma('temp_store', { simple: true })).toBe(2); // MEMORY
    s.close();
  });

  it('a snapshot load sorts its index rebuild in temp files, and gives the setting back', async () => {
    const s = new Storage(join(dir, 'load.db'));
    const io = new SqliteSnapshotIo(s, 'load.db');
    const during = await io.load({ replace: false }, async () => s.db.pragma('temp_store', { simple: true }));
    expect(during).toBe(1); // FILE
    expect(s.db.pragma('temp_store', { simple: true })).toBe(2);
    s.close();
  });
});
