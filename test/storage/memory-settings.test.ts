// serve --cache-size: SQLite's page cache and memory map, bounded (README, "Memory").
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
