import { accessSync, closeSync, constants, openSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { makeDirs } from '../../files/make-dirs.js';
import { StartError } from '../start-error.js';
import { Storage } from './storage.js';

/** The SQLite file named by --db, created 0600 in a 0700 directory when new; a StartError saying why not. */
export function openStorage(dbPath: string, cacheMiB?: number, opts: { mmapMiB?: number; keepDeferredIndexes?: boolean } = {}): Storage {
  try {
    if (dbPath !== ':memory:') {
      // The database holds personal data and the hashes of secrets: a new directory is
      // 0700 and a new file 0600 (SQLite gives its -wal and -shm files the same mode).
      makeDirs(dirname(dbPath), 0o700);
      closeSync(openSync(dbPath, 'a', 0o600));
    }
    return new Storage(dbPath, { cacheMiB, ...opts });
  } catch (err) {
    throw new StartError(`cannot open the database ${dbPath}: ${whyNotOpened(dbPath, err as NodeJS.ErrnoException)}`);
  }
}

/** A write refused by permissions, a read-only file system or an immutable file, as the OS or SQLite says it. */
const REFUSED = new Set(['EACCES', 'EPERM', 'EROFS', 'SQLITE_CANTOPEN', 'SQLITE_READONLY', 'SQLITE_READONLY_DIRECTORY']);

/** Whether `dir` can be written (and entered) by this process; true when something else is wrong with it. */
export function isWritableDir(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
    return true;
  } catch (err) {
    return !['EACCES', 'EPERM', 'EROFS'].includes((err as NodeJS.ErrnoException).code ?? '');
  }
}

/**
 * Why `dbPath` could not be opened, in a few words. A refused write names the directory when
 * that is what cannot be written: SQLite writes its journal (`NAME-wal`, `NAME-shm`) beside the
 * database, so a writable file in a read-only directory cannot be opened either, and a new
 * file cannot be made there. `writable` is `isWritableDir`, or a stand-in in the tests.
 */
export function whyNotOpened(dbPath: string, err: NodeJS.ErrnoException, writable: (dir: string) => boolean = isWritableDir): string {
  const code = err.code ?? err.message;
  if (REFUSED.has(code)) {
    if (err.syscall === 'mkdir' && err.path) {
      // a missing directory of the path that could not be made in its parent
      const parent = dirname(err.path);
      return writable(parent) ? `cannot create the directory ${err.path} (permission denied)` : `the directory ${parent} is not writable (to create ${err.path} in it)`;
    }
    const dir = dirname(dbPath);
    if (code === 'SQLITE_READONLY_DIRECTORY' || !writable(dir)) {
      return `the directory ${dir} is not writable (SQLite needs it for the database's journal, ${basename(dbPath)}-wal)`;
    }
    return 'permission denied or not writable';
  }
  switch (code) {
    case 'ENOTDIR':
    case 'EEXIST':
      return 'a path component is not a directory';
    case 'SQLITE_NOTADB':
      return 'the file is not a SQLite database';
    default:
      return err.message;
  }
}
