import type * as NodeSqlite from 'node:sqlite';
import { NEEDED } from '../../../bin/supported-node.js';

// node:sqlite, the SQLite built into Node.js, loaded on first use. Node 22 (and 24 before
// 24.15) prints "ExperimentalWarning: SQLite is an experimental feature and might change at
// any time" on stderr when the module loads; chamberctl supports those runtimes and prints no
// such line to its users, so exactly that warning is dropped while the module loads, and
// every other warning goes on as before. Loaded with process.getBuiltinModule rather than an
// import, which would run (and warn) before any code of this module.

const WARNING_TYPE = 'ExperimentalWarning';
const WARNING_TEXT = 'SQLite is an experimental feature';

/** The process's warning function, alone: the tests hand in one of their own. */
type Warns = { emitWarning: (...args: never[]) => void };

/** Whether the arguments of a process.emitWarning call are node:sqlite's experimental warning. */
export function isSqliteExperimentalWarning(warning: unknown, typeOrOptions?: unknown): boolean {
  const type =
    warning instanceof Error ? warning.name : typeof typeOrOptions === 'string' ? typeOrOptions : (typeOrOptions as { type?: unknown } | undefined)?.type;
  const text = warning instanceof Error ? warning.message : warning;
  return type === WARNING_TYPE && typeof text === 'string' && text.startsWith(WARNING_TEXT);
}

/** Runs `load` with `proc.emitWarning` passing on every warning but node:sqlite's experimental one. */
export function withoutSqliteWarning<T>(load: () => T, proc: Warns = process): T {
  const emitWarning = proc.emitWarning;
  proc.emitWarning = function (this: unknown, ...args: never[]) {
    if (!isSqliteExperimentalWarning(args[0], args[1])) Reflect.apply(emitWarning, this, args);
  };
  try {
    return load();
  } finally {
    proc.emitWarning = emitWarning;
  }
}

let loaded: typeof NodeSqlite | undefined;

/** node:sqlite; an Error naming the Node.js chamberctl needs where the runtime has none (older than `engines`). */
export function nodeSqlite(): typeof NodeSqlite {
  loaded ??= withoutSqliteWarning(() => process.getBuiltinModule?.('node:sqlite') as typeof NodeSqlite | undefined);
  if (!loaded) throw new Error(`Node.js ${process.versions.node} has no node:sqlite: chamberctl needs ${NEEDED}`);
  return loaded;
}
