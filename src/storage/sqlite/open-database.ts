import Database from 'better-sqlite3';

/**
 * Every better-sqlite3 connection of chamberctl is opened here, and none of its objects is
 * ever garbage-collected: the connection and every statement it prepares (pragmas included)
 * are kept until the process ends.
 *
 * Why: from Node 24.19 on (24.21 still does it; 22 and 26 do not), `node::ObjectWrap`'s
 * destructor removes an environment cleanup hook and asserts that a JavaScript context is
 * entered. better-sqlite3 12 builds its Database, Statement and StatementIterator on
 * ObjectWrap, and V8 runs some collections from tasks of its own, outside any context (a
 * scavenge task once the young generation fills up, say): the first such collection that
 * frees a statement aborts the process with `Assertion failed: (env) != nullptr`
 * (nodejs/node#65446). `serve` died within seconds of starting on Node 24.21. An object that
 * is never garbage has no destructor run by the collector; at exit node's own cleanup hooks
 * free what is kept, inside the context (test/storage/native-objects.test.ts runs both).
 *
 * better-sqlite3 13 (Node-API, not ObjectWrap) has no such destructor, but needs Node 22:
 * when Node 20 leaves `engines`, move to it and delete this keeping.
 *
 * What that asks of the code: statements are prepared a bounded number of times (Storage
 * caches them by their text), never once per request or per row; no `iterate()` (each call
 * makes an iterator object) and no `backup()`.
 */
const kept: Database.Database[] = [];

/** The statements kept for each connection; exported for the test that counts them. */
export const keptStatements = new WeakMap<Database.Database, Database.Statement[]>();

export function openDatabase(path: string, options?: Database.Options): Database.Database {
  const db = new Database(path, options);
  kept.push(db);
  const statements: Database.Statement[] = [];
  keptStatements.set(db, statements);
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    const statement = prepare(sql);
    statements.push(statement);
    return statement;
  }) as typeof db.prepare;
  // better-sqlite3's pragma() prepares with the native binding directly, past prepare():
  // the same, through the kept prepare.
  db.pragma = ((source: string, opts?: { simple?: boolean }) => {
    const statement = db.prepare(`PRAGMA ${source}`);
    if (!statement.reader) {
      statement.run(); // a setter that answers nothing: pragma() gives [] for it too
      return [];
    }
    return opts?.simple ? statement.pluck().get() : statement.all();
  }) as typeof db.pragma;
  return db;
}
