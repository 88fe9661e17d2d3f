// The bundle is pure ASCII (scripts/build.mjs, asciiOnly): node 20 reads a file with a single
// character beyond ASCII through its slow UTF-8 path into a two-byte string, which cost every
// HTTP command ~5-15 ms of start-up for undici's chunk alone (docs/performance.md).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertBuilt } from '../helpers/cli.js';

describe('the bundle', () => {
  it('is ASCII in every file the CLI loads', () => {
    assertBuilt();
    const dist = join(import.meta.dirname, '..', '..', 'dist');
    const files = [join(dist, 'cli.cjs'), ...readdirSync(join(dist, 'chunks')).map((f) => join(dist, 'chunks', f))];
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.filter((f) => /[^\x00-\x7f]/.test(readFileSync(f, 'latin1')));
    expect(offenders).toEqual([]);
  });
});
