// The adapter over node:sqlite (src/storage/sqlite/database.ts, statement.ts, error-codes.ts):
// what storage relies on of a connection, checked against real SQLite on the runtime that
// runs the tests (CI: each runtime of `engines`).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/storage/sqlite/database.js';
import { sqliteCodeName } from '../../src/storage/sqlite/error-codes.js';

const dir = mkdtempSync(join(tmpdir(), 'chamberctl-database-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function withTable(): Database {
  const db = openDatabase(':memory:');
  db.exec(`CREATE TABLE parent (id TEXT PRIMARY KEY);
    CREATE TABLE t (id TEXT PRIMARY KEY, u TEXT UNIQUE, n INTEGER NOT NULL CHECK (n >= 0), p TEXT REFERENCES parent(id))`);
  return db;
}

/** The error `fn` throws (it must throw). */
function errorOf(fn: () => unknown): Error & { code?: string; errcode?: number } {
  try {
    fn();
  } catch (err) {
    return err as Error & { code?: string };
  }
  throw new Error('expected an error');
}

describe('SQLite errors', () => {
  it('carry the name of their SQLite code, as storage and its messages use them', () => {
    const db = withTable();
    const insert = db.prepare('INSERT INTO t (id, u, n, p) VALUES (?, ?, ?, ?)');
    insert.run('a', 'x', 1, null);
    expect(errorOf(() => insert.run('a', 'y', 1, null))).toMatchObject({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY', errcode: 1555 });
    expect(errorOf(() => insert.run('b', 'x', 1, null))).toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE', message: 'UNIQUE constraint failed: t.u' });
    expect(errorOf(() => insert.run('c', 'z', null, null)).code).toBe('SQLITE_CONSTRAINT_NOTNULL');
    expect(errorOf(() => insert.run('d', 'w', -1, null)).code).toBe('SQLITE_CONSTRAINT_CHECK');
    expect(errorOf(() => insert.run('e', 'v', 1, 'nobody')).code).toBe('SQLITE_CONSTRAINT_FOREIGNKEY'); // foreign keys are on
    expect(errorOf(() => db.exec('SELEC 1')).code).toBe('SQLITE_ERROR');
    expect(errorOf(() => db.prepare('SELECT nope FROM t')).code).toBe('SQLITE_ERROR');
    db.close();
  });

  it('name a locked database, a file that is no database, a path that cannot be opened and a read-only connection', () => {
    const path = join(dir, 'locked.db');
    const a = openDatabase(path);
    a.pragma('journal_mode = WAL');
    a.exec('CREATE TABLE t (x)');
    const b = openDatabase(path);
    b.pragma('busy_timeout = 0');
    a.exec('BEGIN IMMEDIATE');
    expect(errorOf(() => b.exec('BEGIN IMMEDIATE')).code).toBe('SQLITE_BUSY');
    a.exec('ROLLBACK');
    a.close();
    b.close();

    const text = join(dir, 'text.db');
    writeFileSync(text, 'this is not a database, only text long enough to have a header of its own\n'.repeat(2));
    const notDb = openDatabase(text);
    expect(errorOf(() => notDb.pragma('journal_mode = WAL')).code).toBe('SQLITE_NOTADB');
    notDb.close();

    expect(errorOf(() => openDatabase(join(dir, 'missing', 'x.db'))).code).toBe('SQLITE_CANTOPEN');
    const readOnly = openDatabase(path, { readOnly: true });
    expect(errorOf(() => readOnly.exec('INSERT INTO t VALUES (1)')).code).toBe('SQLITE_READONLY');
    readOnly.close();
  });

  it('pass other errors on as node:sqlite raised them', () => {
    const db = openDatabase(':memory:');
    expect(errorOf(() => db.prepare('SELECT ?').get(Symbol('x'))).code).toBe('ERR_INVALID_ARG_TYPE');
    db.close();
    expect(errorOf(() => db.prepare('SELECT 1')).code).toBe('ERR_INVALID_STATE');
  });

  it('names extended codes by sqlite3.h, and a code it does not know by its number', () => {
    expect(sqliteCodeName(5)).toBe('SQLITE_BUSY');
    expect(sqliteCodeName(5 | (3 << 8))).toBe('SQLITE_BUSY_TIMEOUT');
    expect(sqliteCodeName(8 | (6 << 8))).toBe('SQLITE_READONLY_DIRECTORY');
    expect(sqliteCodeName(4 | (2 << 8))).toBe('SQLITE_ABORT_ROLLBACK');
    expect(sqliteCodeName(10 | (34 << 8))).toBe('SQLITE_IOERR_IN_PAGE');
    expect(sqliteCodeName(4 | (1 << 8))).toBe('UNKNOWN_SQLITE_ERROR_260'); // no such code
    expect(sqliteCodeName(19 | (99 << 8))).toBe(`UNKNOWN_SQLITE_ERROR_${19 | (99 << 8)}`);
    expect(sqliteCodeName(99)).toBe('UNKNOWN_SQLITE_ERROR_99');
  });
});

describe('transactions', () => {
  const count = (db: Database) => db.prepare('SELECT count(*) FROM t').pluck().get();

  it('commit what the function wrote and return what it returned', () => {
    const db = withTable();
    expect(db.transaction(() => db.prepare("INSERT INTO t (id, n) VALUES ('a', 1)").run().changes)).toBe(1);
    expect(db.inTransaction).toBe(false);
    expect(count(db)).toBe(1);
  });

  it('roll back all of it when the function throws, and rethrow', () => {
    const db = withTable();
    const failure = new Error('no');
    expect(() =>
      db.transaction(() => {
        db.exec("INSERT INTO t (id, n) VALUES ('a', 1)");
        throw failure;
      }),
    ).toThrow(failure);
    expect(db.inTransaction).toBe(false);
    expect(count(db)).toBe(0);
  });

  it('inside a transaction, undo only their own writes', () => {
    const db = withTable();
    db.transaction(() => {
      db.exec("INSERT INTO t (id, n) VALUES ('outer', 1)");
      expect(() =>
        db.transaction(() => {
          db.exec("INSERT INTO t (id, n) VALUES ('inner', 1)");
          db.exec("INSERT INTO t (id, n) VALUES ('inner', 1)"); // the primary key again
        }),
      ).toThrow(expect.objectContaining({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' }));
      db.transaction(() => db.exec("INSERT INTO t (id, n) VALUES ('kept', 1)"));
      expect(db.inTransaction).toBe(true);
    });
    expect(db.prepare('SELECT id FROM t ORDER BY id').pluck().all()).toEqual(['kept', 'outer']);
  });

  it('take the write lock at BEGIN when immediate, not at the first write when deferred', () => {
    const path = join(dir, 'immediate.db');
    const a = openDatabase(path);
    a.pragma('journal_mode = WAL');
    a.exec('CREATE TABLE t (x)');
    const b = openDatabase(path);
    b.pragma('busy_timeout = 0');
    const otherWrites = () => errorOf(() => b.exec('INSERT INTO t VALUES (2)')).code;
    a.transaction(() => expect(b.exec('INSERT INTO t VALUES (1)')).toBeUndefined()); // deferred: nothing held yet
    a.transaction(() => expect(otherWrites()).toBe('SQLITE_BUSY'), 'immediate');
    a.close();
    b.close();
  });
});

describe('statements and pragmas', () => {
  it('read rows as objects, as arrays (raw) or their first column (pluck), as set last', () => {
    const db = withTable();
    db.prepare('INSERT INTO t (id, u, n) VALUES (?, ?, ?), (?, ?, ?)').run('a', 'x', 1, 'b', null, 2);
    const s = db.prepare('SELECT id, n FROM t ORDER BY id');
    expect(s.all()).toEqual([{ id: 'a', n: 1 }, { id: 'b', n: 2 }]);
    expect(s.raw().all()).toEqual([['a', 1], ['b', 2]]);
    expect(s.pluck().all()).toEqual(['a', 'b']);
    expect(s.get()).toBe('a');
    expect(s.pluck(false).get()).toEqual({ id: 'a', n: 1 });
    expect(db.prepare('SELECT id FROM t WHERE id = ?').pluck().get('none')).toBeUndefined();
    expect(db.prepare('SELECT id FROM t WHERE id = ?').get('none')).toBeUndefined();
  });

  it('bind by position, a numbered parameter once for every use of it, and by name', () => {
    const db = openDatabase(':memory:');
    expect(db.prepare('SELECT ? AS a, ? AS b').get(1, 'two')).toEqual({ a: 1, b: 'two' });
    expect(db.prepare('SELECT ?1 AS a, ?1 AS b').get({ 1: 'x' })).toEqual({ a: 'x', b: 'x' });
    expect(db.prepare('SELECT @v AS a').get({ v: 7 })).toEqual({ a: 7 });
    expect(db.prepare("SELECT x'0102' AS b").pluck().get()).toEqual(new Uint8Array([1, 2]));
  });

  it('report what a write changed', () => {
    const db = withTable();
    const r = db.prepare('INSERT INTO t (id, n) VALUES (?, ?)').run('a', 1);
    expect(r).toMatchObject({ changes: 1, lastInsertRowid: 1 });
    expect(db.prepare('DELETE FROM t').run().changes).toBe(1);
  });

  it('answer a pragma with its rows, its value, or nothing for a setter', () => {
    const db = openDatabase(':memory:');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('user_version = 3')).toEqual([]);
    expect(db.pragma('user_version', { simple: true })).toBe(3);
    db.exec('CREATE TABLE t (id TEXT)');
    expect(db.pragma('table_info(t)')).toEqual([expect.objectContaining({ name: 'id', type: 'TEXT' })]);
  });
});

describe('a connection', () => {
  it('knows its name, whether it is in memory and whether it is open, and closes once', () => {
    const path = join(dir, 'named.db');
    const file = openDatabase(path);
    expect([file.name, file.memory, file.open]).toEqual([path, false, true]);
    file.close();
    expect(file.open).toBe(false);
    expect(() => file.close()).not.toThrow();
    const memory = openDatabase(':memory:');
    expect([memory.name, memory.memory]).toEqual([':memory:', true]);
    memory.close();
  });
});
