import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StartError } from '../../src/storage/start-error.js';
import { isWritableDir, openStorage, whyNotOpened } from '../../src/storage/sqlite/open-storage.js';

// `serve --db DIR/x.db` where DIR cannot be written: SQLite writes its journal (x.db-wal) beside
// the database, so even a writable x.db cannot be opened, and the message names DIR, not x.db.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'chamberctl-open-storage-'));
});
afterEach(() => {
  unlock(join(dir, 'locked'));
  rmSync(dir, { recursive: true, force: true });
});

const errno = (code: string, more: Partial<NodeJS.ErrnoException> = {}) => Object.assign(new Error(`${code}: something`), { code, ...more });
const dirMessage = (d: string, file: string) => `the directory ${d} is not writable (SQLite needs it for the database's journal, ${file}-wal)`;

describe('why the database could not be opened', () => {
  // What each refusal comes as: EACCES or EPERM from open() when the file is new (EPERM for an
  // immutable directory), EROFS on a read-only file system; from SQLite, on a file that exists,
  // SQLITE_READONLY_DIRECTORY when permissions refuse the journal, SQLITE_CANTOPEN when the
  // directory is immutable (as root).
  it.each(['EACCES', 'EPERM', 'EROFS', 'SQLITE_CANTOPEN', 'SQLITE_READONLY'])('%s names the directory when it is not writable, the file when it is', (code) => {
    expect(whyNotOpened('/data/dir/x.db', errno(code), () => false)).toBe(dirMessage('/data/dir', 'x.db'));
    expect(whyNotOpened('/data/dir/x.db', errno(code), () => true)).toBe('permission denied or not writable');
  });

  it('SQLITE_READONLY_DIRECTORY names the directory, as SQLite does', () => {
    expect(whyNotOpened('/data/dir/x.db', errno('SQLITE_READONLY_DIRECTORY'), () => true)).toBe(dirMessage('/data/dir', 'x.db'));
  });

  it('asks about the directory of the database, or the parent of the directory mkdir could not make', () => {
    const asked: string[] = [];
    const writable = (d: string) => (asked.push(d), false);
    whyNotOpened('/data/dir/x.db', errno('EACCES', { syscall: 'open', path: '/data/dir/x.db' }), writable);
    expect(whyNotOpened('/data/new/x.db', errno('EACCES', { syscall: 'mkdir', path: '/data/new' }), writable)).toBe('the directory /data is not writable (to create /data/new in it)');
    expect(asked).toEqual(['/data/dir', '/data']);
    expect(whyNotOpened('/data/new/x.db', errno('EACCES', { syscall: 'mkdir', path: '/data/new' }), () => true)).toBe('cannot create the directory /data/new (permission denied)');
  });

  it('keeps the other messages', () => {
    expect(whyNotOpened('/f/x.db', errno('ENOTDIR'), () => false)).toBe('a path component is not a directory');
    expect(whyNotOpened('/d/x.db', errno('SQLITE_NOTADB'), () => false)).toBe('the file is not a SQLite database');
    expect(whyNotOpened('/proc/nope/x.db', errno('ENOENT'), () => false)).toBe('ENOENT: something');
  });
});

/**
 * Makes `d` unwritable to this process: `chmod 555`, or, as root (who writes regardless of
 * modes, as the tests run), `chattr +i`, checked first to work on this file system.
 */
function lock(d: string): void {
  if (process.getuid?.() !== 0) return chmodSync(d, 0o555);
  try {
    execFileSync('chattr', ['+i', d], { stdio: 'pipe' });
  } catch (err) {
    throw new Error(`as root, a directory can only be made unwritable with chattr +i, which failed here (it needs CAP_LINUX_IMMUTABLE and a file system that has the flag): ${(err as Error).message}`);
  }
  let wrote = true;
  try {
    writeFileSync(join(d, 'probe'), '');
  } catch {
    wrote = false;
  }
  if (wrote) throw new Error(`chattr +i ${d} did not stop a write`);
}

function unlock(d: string): void {
  if (process.getuid?.() === 0) {
    try {
      execFileSync('chattr', ['-i', d], { stdio: 'pipe' });
    } catch {
      // not locked, or already gone
    }
  } else {
    try {
      chmodSync(d, 0o755);
    } catch {
      // already gone
    }
  }
}

describe('a directory that cannot be written', () => {
  it('is named, not the database file: a writable file in it, and a new one', () => {
    const locked = join(dir, 'locked');
    mkdirSync(locked);
    writeFileSync(join(locked, 'x.db'), '');
    chmodSync(join(locked, 'x.db'), 0o666);
    lock(locked);
    expect(isWritableDir(locked)).toBe(false);
    expect(isWritableDir(dir)).toBe(true);
    for (const file of ['x.db', 'new.db']) {
      const path = join(locked, file);
      let err: unknown;
      try {
        openStorage(path).close();
      } catch (e) {
        err = e;
      }
      expect(err, file).toBeInstanceOf(StartError);
      expect((err as Error).message).toBe(`cannot open the database ${path}: ${dirMessage(locked, file)}`);
    }
  });

  it('a new directory whose parent cannot be written: the parent is named', () => {
    const locked = join(dir, 'locked');
    mkdirSync(locked);
    lock(locked);
    const path = join(locked, 'sub', 'x.db');
    expect(() => openStorage(path)).toThrow(`cannot open the database ${path}: the directory ${locked} is not writable (to create ${join(locked, 'sub')} in it)`);
  });
});
