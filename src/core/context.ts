import type { Readable, Writable } from 'node:stream';
import { getAsset, isSea } from 'node:sea';
import { COPY_WORKER_ARG, type CopyWorkerSpawn } from './copy-worker-spawn.js';

/** A writable stream that may be a terminal. */
export type OutStream = Writable & { isTTY?: boolean; columns?: number };

/**
 * Everything a command touches outside its arguments, injected so that the work can be
 * tested without a terminal, a real clock or the user's config directory.
 */
export interface CliContext {
  stdout: OutStream;
  stderr: OutStream;
  stdin: Readable & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  now: () => Date;
  /** Installs a handler for SIGINT/SIGTERM; returns a function that removes it. */
  onSignal: (handler: (signal: NodeJS.Signals) => void) => () => void;
  /** Set by a command that finished but wants a non-zero exit (e.g. an import with failed rows). */
  exitCode?: number;
  /**
   * How to start this program again in a worker thread, for `sync pull` to write a SQLite
   * copy beside the HTTP work; absent (tests that run commands in-process), it writes on
   * the main thread.
   */
  copyWorker?: CopyWorkerSpawn;
  /**
   * Who the audit trail names as the maker of a client change (`user@host`); absent, the
   * user and host this process runs as (operator.ts). Tests set it.
   */
  operator?: string;
}

/**
 * This program again, with the argument src/cli/main.ts answers as a copy's worker:
 * bin/chamberctl.js, or in the single executable its entry script, kept among its assets
 * (scripts/build-binary.mjs) since there is no file to name.
 */
function copyWorkerSpawn(): { copyWorker?: CopyWorkerSpawn } {
  if (isSea()) return { copyWorker: { script: getAsset('sea-main.cjs', 'utf8'), eval: true, argv: [COPY_WORKER_ARG] } };
  return process.argv[1] ? { copyWorker: { script: process.argv[1], argv: [COPY_WORKER_ARG] } } : {};
}

export function processContext(): CliContext {
  // A reader that stops early (`chamberctl --help | head -1`) closes the pipe: the output has
  // simply ended, as with any Unix tool. Without a listener node would crash with EPIPE.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
    });
  }
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    now: () => new Date(),
    ...copyWorkerSpawn(),
    onSignal(handler) {
      // Some dependencies (when-exit, via conf's atomic writes) answer a signal by raising
      // it again at once; a repeat within 250 ms is that echo, not a second Ctrl-C.
      let last = 0;
      const listener = (signal: NodeJS.Signals) => {
        const now = Date.now();
        if (now - last < 250) return;
        last = now;
        handler(signal);
      };
      process.on('SIGINT', listener);
      process.on('SIGTERM', listener);
      return () => {
        process.off('SIGINT', listener);
        process.off('SIGTERM', listener);
      };
    },
  };
}

/**
 * The global options (docs/manual/help-environment.md), as commander hands them
 * to every command (optsWithGlobals).
 */
export interface GlobalOptions {
  profile?: string;
  json?: boolean;
  apiVersion?: 'auto' | 'v1' | 'v2';
  baseUrl?: string;
  /** false with --no-color */
  color: boolean;
  /** --format of the list commands (`--json` is `json`). */
  format?: 'table' | 'tsv' | 'json' | 'csv';
  /** --wide on the lists: every column, nothing cut. */
  wide?: boolean;
  /** --raw on the lists: --format csv without the `'` before a would-be formula. */
  raw?: boolean;
  /** `--json id,name` (or `--json=id,name`): only these fields of each object, as gh's --json. */
  jsonFields?: string[];
  verbose?: boolean;
}
