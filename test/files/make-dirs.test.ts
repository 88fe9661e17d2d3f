// makeDirs: `mkdir -p` that fails with the error of the directory it cannot make, where
// node 20's recursive mkdirSync loops forever (a path under /proc).
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDirs } from '../../src/files/make-dirs.js';

const tmp = mkdtempSync(join(tmpdir(), 'chamberctl-make-dirs-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const codeOf = (fn: () => void) => {
  try {
    fn();
  } catch (err) {
    return (err as NodeJS.ErrnoException).code;
  }
  return 'no error';
};

describe('makeDirs', () => {
  it('makes every missing directory with the mode given, and accepts one that exists', () => {
    const deep = join(tmp, 'a', 'b', 'c');
    makeDirs(deep, 0o700);
    for (const d of [join(tmp, 'a'), join(tmp, 'a', 'b'), deep]) {
      expect(statSync(d).isDirectory()).toBe(true);
      expect(statSync(d).mode & 0o777).toBe(0o700 & ~process.umask());
    }
    makeDirs(deep, 0o700);
    makeDirs(tmp, 0o755); // exists: untouched
    expect(statSync(tmp).mode & 0o777).toBe(0o700); // mkdtemp's
  });

  it('fails with ENOTDIR when a file is in the way', () => {
    const file = join(tmp, 'plain-file');
    writeFileSync(file, 'x');
    expect(codeOf(() => makeDirs(join(file, 'sub'), 0o700))).toBe('ENOTDIR');
    expect(codeOf(() => makeDirs(file, 0o700))).toBe('ENOTDIR');
  });

  // node's own `mkdirSync('/proc/nope/x', { recursive: true })` never returns
  it('fails at once under /proc (Linux), where mkdir answers ENOENT', () => {
    expect(codeOf(() => makeDirs('/proc/chamberctl-nope/x', 0o700))).toBe('ENOENT');
  }, 5_000);
});
