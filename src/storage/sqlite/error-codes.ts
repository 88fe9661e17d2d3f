/**
 * SQLite's result codes by name, as the rest of storage (and its messages to the user) know
 * them: `SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_BUSY`, `SQLITE_READONLY_DIRECTORY`. node:sqlite
 * raises every SQLite error as `code: 'ERR_SQLITE_ERROR'` with the extended result code as a
 * number (`errcode`); the adapter (database.ts) gives such an error the name here as its
 * `code`, which is how better-sqlite3 named them.
 *
 * An extended code is its primary code plus n << 8 (sqlite3.h); the names below are those of
 * n = 1, 2, 3... for each primary code, in sqlite3.h's order (checked against the sqlite3.h of
 * SQLite 3.53.2, better-sqlite3 12.11.1's, when this replaced it).
 */
const PRIMARY = [
  'OK', 'ERROR', 'INTERNAL', 'PERM', 'ABORT', 'BUSY', 'LOCKED', 'NOMEM', 'READONLY', 'INTERRUPT', 'IOERR', 'CORRUPT', 'NOTFOUND',
  'FULL', 'CANTOPEN', 'PROTOCOL', 'EMPTY', 'SCHEMA', 'TOOBIG', 'CONSTRAINT', 'MISMATCH', 'MISUSE', 'NOLFS', 'AUTH', 'FORMAT',
  'RANGE', 'NOTADB', 'NOTICE', 'WARNING',
];

const EXTENDED: Record<string, string[]> = {
  OK: ['LOAD_PERMANENTLY', 'SYMLINK'],
  ERROR: ['MISSING_COLLSEQ', 'RETRY', 'SNAPSHOT', 'RESERVESIZE', 'KEY', 'UNABLE'],
  ABORT: ['', 'ROLLBACK'], // n = 1 is not used
  BUSY: ['RECOVERY', 'SNAPSHOT', 'TIMEOUT'],
  LOCKED: ['SHAREDCACHE', 'VTAB'],
  READONLY: ['RECOVERY', 'CANTLOCK', 'ROLLBACK', 'DBMOVED', 'CANTINIT', 'DIRECTORY'],
  IOERR: [
    'READ', 'SHORT_READ', 'WRITE', 'FSYNC', 'DIR_FSYNC', 'TRUNCATE', 'FSTAT', 'UNLOCK', 'RDLOCK', 'DELETE', 'BLOCKED', 'NOMEM',
    'ACCESS', 'CHECKRESERVEDLOCK', 'LOCK', 'CLOSE', 'DIR_CLOSE', 'SHMOPEN', 'SHMSIZE', 'SHMLOCK', 'SHMMAP', 'SEEK',
    'DELETE_NOENT', 'MMAP', 'GETTEMPPATH', 'CONVPATH', 'VNODE', 'AUTH', 'BEGIN_ATOMIC', 'COMMIT_ATOMIC', 'ROLLBACK_ATOMIC',
    'DATA', 'CORRUPTFS', 'IN_PAGE', 'BADKEY', 'CODEC',
  ],
  CORRUPT: ['VTAB', 'SEQUENCE', 'INDEX'],
  CANTOPEN: ['NOTEMPDIR', 'ISDIR', 'FULLPATH', 'CONVPATH', 'DIRTYWAL', 'SYMLINK'],
  CONSTRAINT: ['CHECK', 'COMMITHOOK', 'FOREIGNKEY', 'FUNCTION', 'NOTNULL', 'PRIMARYKEY', 'TRIGGER', 'UNIQUE', 'VTAB', 'ROWID', 'PINNED', 'DATATYPE'],
  NOTICE: ['RECOVER_WAL', 'RECOVER_ROLLBACK', 'RBU'],
  WARNING: ['AUTOINDEX'],
  AUTH: ['USER'],
};

/** `SQLITE_CONSTRAINT_UNIQUE` for 2067; a code SQLite may add later is named by its number. */
export function sqliteCodeName(errcode: number): string {
  const primary = PRIMARY[errcode & 0xff];
  if (primary === undefined) return `UNKNOWN_SQLITE_ERROR_${errcode}`;
  const n = errcode >> 8;
  if (n === 0) return `SQLITE_${primary}`;
  const extended = EXTENDED[primary]?.[n - 1];
  return !extended ? `UNKNOWN_SQLITE_ERROR_${errcode}` : `SQLITE_${primary}_${extended}`;
}

/**
 * `err` with its SQLite code named: node:sqlite's `ERR_SQLITE_ERROR` becomes the name of its
 * `errcode` (`errcode` and `errstr` stay). Any other error (a closed database, a value that
 * cannot be bound) is returned as it is.
 */
export function withSqliteCode(err: unknown): unknown {
  const e = err as { code?: unknown; errcode?: unknown } | null;
  if (e?.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') e.code = sqliteCodeName(e.errcode);
  return err;
}
