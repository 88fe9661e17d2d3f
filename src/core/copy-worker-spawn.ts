/** The argument that makes bin/chamberctl.js serve a SQLite copy in a worker thread (storage/sqlite/threaded-copy.ts). */
export const COPY_WORKER_ARG = '__chamberctl-copy-worker';

/** How to start this program again in a worker thread, to serve a copy there. */
export interface CopyWorkerSpawn {
  /** The program's script (bin/chamberctl.js, or a bench's own file), or its text when `eval`. */
  script: string;
  /** `script` is the code itself: the single executable has no script file to start again. */
  eval?: boolean;
  /** Arguments that make that script serve a copy (it calls serveCopyInWorker). */
  argv: string[];
}
