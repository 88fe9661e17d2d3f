import type { SQLInputValue, StatementSync } from 'node:sqlite';
import { withSqliteCode } from './error-codes.js';

/** What a write reports: rows changed (a number: big integers are not read as BigInt). */
export interface RunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

/**
 * A prepared statement of node:sqlite, as storage uses one: `run`, `get` and `all` with the
 * parameters bound by position (`?`, `?1`) or by name (an object for `@name`), and two ways
 * to read rows other than as objects, which a statement keeps once set: `raw()` (each row an
 * array of its columns) and `pluck()` (the first column alone). Every SQLite error leaves
 * with its code named (`SQLITE_CONSTRAINT_UNIQUE`; error-codes.ts).
 */
export class Statement {
  #rows: 'objects' | 'arrays' | 'first' = 'objects';

  constructor(private readonly statement: StatementSync) {}

  run(...params: unknown[]): RunResult {
    try {
      return this.statement.run(...(params as SQLInputValue[])) as RunResult;
    } catch (err) {
      throw withSqliteCode(err);
    }
  }

  /** The first row, or undefined when there is none. */
  get(...params: unknown[]): unknown {
    let row: unknown;
    try {
      row = this.statement.get(...(params as SQLInputValue[]));
    } catch (err) {
      throw withSqliteCode(err);
    }
    return this.#rows === 'first' && row !== undefined ? (row as unknown[])[0] : row;
  }

  all(...params: unknown[]): unknown[] {
    let rows: unknown[];
    try {
      rows = this.statement.all(...(params as SQLInputValue[]));
    } catch (err) {
      throw withSqliteCode(err);
    }
    return this.#rows === 'first' ? rows.map((row) => (row as unknown[])[0]) : rows;
  }

  /** Rows as arrays of their columns from now on (false: as objects again). */
  raw(on = true): this {
    return this.#read(on ? 'arrays' : 'objects');
  }

  /** The first column of each row alone from now on (false: rows as objects again). */
  pluck(on = true): this {
    return this.#read(on ? 'first' : 'objects');
  }

  #read(rows: 'objects' | 'arrays' | 'first'): this {
    // statements are cached and set again on every use: only a change reaches node:sqlite
    if (rows !== this.#rows) {
      this.statement.setReturnArrays(rows !== 'objects');
      this.#rows = rows;
    }
    return this;
  }
}
