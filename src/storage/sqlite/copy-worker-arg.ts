/** The argument that makes bin/chamberctl.js serve a SQLite copy in a worker thread (threaded-copy.ts). */
export const COPY_WORKER_ARG = '__chamberctl-copy-worker';
