import { closeSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
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
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new StartError(`cannot open the database ${dbPath}: ${describe(reason, err as Error)}`);
  }
}

function describe(code: string, err: Error): string {
  switch (code) {
    case 'EACCES':
    case 'EPERM':
    case 'SQLITE_CANTOPEN':
    case 'SQLITE_READONLY':
      return 'permission denied or not writable';
    case 'ENOTDIR':
    case 'EEXIST':
      return 'a path component is not a directory';
    case 'SQLITE_NOTADB':
      return 'the file is not a SQLite database';
    default:
      return err.message;
  }
}

