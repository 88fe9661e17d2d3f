// node:sqlite is loaded without its ExperimentalWarning (Node 22, and 24 before 24.15), and
// without hiding any other warning (src/storage/sqlite/node-sqlite.ts). That no command prints
// it is checked on the built binary: test/e2e/sqlite-warning.test.ts.
import { describe, expect, it } from 'vitest';
import { isSqliteExperimentalWarning, nodeSqlite, withoutSqliteWarning } from '../../src/storage/sqlite/node-sqlite.js';

const SQLITE = 'SQLite is an experimental feature and might change at any time';

/** A stand-in for the process: records the warnings that reach its emitWarning. */
function fakeProcess() {
  const seen: unknown[][] = [];
  return { seen, emitWarning: (...args: unknown[]) => void seen.push(args) };
}

describe('the warning of node:sqlite', () => {
  it('is told from every other warning, however it is emitted', () => {
    expect(isSqliteExperimentalWarning(SQLITE, 'ExperimentalWarning')).toBe(true);
    expect(isSqliteExperimentalWarning(SQLITE, { type: 'ExperimentalWarning' })).toBe(true);
    expect(isSqliteExperimentalWarning(Object.assign(new Error(SQLITE), { name: 'ExperimentalWarning' }))).toBe(true);
    expect(isSqliteExperimentalWarning('WASI is an experimental feature and might change at any time', 'ExperimentalWarning')).toBe(false);
    expect(isSqliteExperimentalWarning(SQLITE, 'DeprecationWarning')).toBe(false);
    expect(isSqliteExperimentalWarning(SQLITE)).toBe(false); // a plain Warning
    expect(isSqliteExperimentalWarning(new Error(SQLITE))).toBe(false);
  });

  it('is dropped while the module loads, other warnings pass, and the process gets its own function back', () => {
    const proc = fakeProcess();
    const own = proc.emitWarning;
    const result = withoutSqliteWarning(() => {
      (proc.emitWarning as (...a: unknown[]) => void)(SQLITE, 'ExperimentalWarning');
      (proc.emitWarning as (...a: unknown[]) => void)('something else', 'ExperimentalWarning', 'X1');
      return 42;
    }, proc);
    expect(result).toBe(42);
    expect(proc.seen).toEqual([['something else', 'ExperimentalWarning', 'X1']]);
    expect(proc.emitWarning).toBe(own);
    proc.emitWarning(SQLITE, 'ExperimentalWarning'); // after the load: not ours to hide
    expect(proc.seen).toHaveLength(2);
  });

  it('gives the process its function back when the load fails', () => {
    const proc = fakeProcess();
    const own = proc.emitWarning;
    expect(() =>
      withoutSqliteWarning(() => {
        throw new Error('no module');
      }, proc),
    ).toThrow('no module');
    expect(proc.emitWarning).toBe(own);
  });

  it('leaves the module itself as node gives it', () => {
    const sqlite = nodeSqlite();
    expect(sqlite).toBe(process.getBuiltinModule('node:sqlite'));
    expect(typeof sqlite.DatabaseSync).toBe('function');
  });
});
