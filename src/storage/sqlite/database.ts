import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { withSqliteCode } from './error-codes.js';
import { nodeSqlite } from './node-sqlite.js';
import { Statement } from './statement.js';

export { Statement, type RunResult } from './statement.js';

export interface OpenOptions {
  /** Opened read-only: the file must exist, and nothing can be written through it. */
  readOnly?: boolean;
}

/** The savepoint of a transaction inside another (the name is ours; SQLite nests equal names). */
const NESTED = 'chamberctl_nested';

/**
 * One connection to a SQLite database, on node:sqlite (the SQLite built into Node.js): every
 * connection of chamberctl is one of these. node:sqlite's own API with the few things storage
 * needs on top: statements that read rows as arrays or a single column (statement.ts), a
 * transaction helper, `pragma()`, errors whose `code` names the SQLite error
 * (`SQLITE_BUSY`, `SQLITE_CONSTRAINT_UNIQUE`: error-codes.ts), and the name it was opened by.
 * What it uses of node:sqlite is in Node.js 22.16 and later (`setReturnArrays` and
 * `isTransaction` came to 22 in 22.16), the lower bound of package.json's `engines`.
 */
export class Database {
  readonly #db: DatabaseSync;
  /** BEGIN, COMMIT and the like, each prepared once. */
  readonly #control = new Map<string, StatementSync>();

  /** `name`: a file's path, or `:memory:`. */
  constructor(
    readonly name: string,
    options: OpenOptions = {},
  ) {
    const { DatabaseSync } = nodeSqlite();
    try {
      this.#db = new DatabaseSync(name, { readOnly: options.readOnly ?? false });
    } catch (err) {
      throw withSqliteCode(err);
    }
  }

  get memory(): boolean {
    return this.name === ':memory:' || this.name === '';
  }

  get open(): boolean {
    return this.#db.isOpen;
  }

  get inTransaction(): boolean {
    return this.#db.isTransaction;
  }

  prepare(sql: string): Statement {
    try {
      return new Statement(this.#db.prepare(sql));
    } catch (err) {
      throw withSqliteCode(err);
    }
  }

  exec(sql: string): void {
    try {
      this.#db.exec(sql);
    } catch (err) {
      throw withSqliteCode(err);
    }
  }

  /** `PRAGMA source`: its rows, or with `simple` the first value of its first row (undefined if none). */
  pragma(source: string, options: { simple?: boolean } = {}): unknown {
    const statement = this.prepare(`PRAGMA ${source}`);
    return options.simple ? statement.pluck().get() : statement.all();
  }

  /**
   * Runs `fn` in a transaction, committed when it returns and rolled back when it throws (the
   * error then goes on), and returns what it returned. `immediate` takes the write lock at
   * BEGIN. Inside a transaction it is a savepoint instead, so that a failing `fn` undoes only
   * its own writes. A commit that fails (the lock not had in time) rolls back too: nothing
   * of `fn` is written.
   */
  transaction<T>(fn: () => T, mode: 'deferred' | 'immediate' = 'deferred'): T {
    if (this.inTransaction) return this.#savepoint(fn);
    this.#run(mode === 'immediate' ? 'BEGIN IMMEDIATE' : 'BEGIN');
    try {
      const result = fn();
      this.#run('COMMIT');
      return result;
    } catch (err) {
      // an error SQLite already rolled back for (a full disk, say) leaves no transaction
      if (this.inTransaction) this.#run('ROLLBACK');
      throw err;
    }
  }

  #savepoint<T>(fn: () => T): T {
    this.#run(`SAVEPOINT ${NESTED}`);
    let result: T;
    try {
      result = fn();
    } catch (err) {
      if (this.inTransaction) {
        this.#run(`ROLLBACK TO ${NESTED}`);
        this.#run(`RELEASE ${NESTED}`);
      }
      throw err;
    }
    this.#run(`RELEASE ${NESTED}`);
    return result;
  }

  #run(sql: string): void {
    let statement = this.#control.get(sql);
    try {
      if (!statement) {
        statement = this.#db.prepare(sql);
        this.#control.set(sql, statement);
      }
      statement.run();
    } catch (err) {
      throw withSqliteCode(err);
    }
  }

  /** Closes the connection (again: nothing). The last connection to a file checkpoints its WAL. */
  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }
}

/** A connection to the database at `path` (`:memory:`: a new one in memory). */
export function openDatabase(path: string, options?: OpenOptions): Database {
  return new Database(path, options);
}
