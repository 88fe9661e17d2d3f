import { parentPort, workerData } from 'node:worker_threads';
import { openStorage } from './open-storage.js';
import { SyncCopy } from './sync-copy.js';
import { errorToMessage, type CopyAnswer, type CopyCall, type CopyWorkerData } from './threaded-copy.js';

/**
 * The worker thread's side of ThreadedCopy: opens the SQLite copy and runs each call it is
 * sent, in the order sent, answering each with its result or its error. The copy's own
 * batches and commits (SyncCopy) are unchanged; they simply run on this thread.
 */
export function serveCopyInWorker(): void {
  const port = parentPort;
  if (!port) throw new Error('serveCopyInWorker runs in a worker thread');
  const { path, cacheMiB } = workerData as CopyWorkerData;
  let copy: SyncCopy;
  try {
    // No memory map: a pull writes, and the map's pages would only add to the pull's RSS
    // (up to its size; the peak RSS of a pull has a target, docs/performance.md).
    copy = new SyncCopy(openStorage(path, cacheMiB, { keepDeferredIndexes: true, mmapMiB: 0 }));
  } catch (err) {
    port.postMessage({ id: 0, ok: false, error: errorToMessage(err), heldBack: 0 } satisfies CopyAnswer);
    port.close();
    return;
  }
  port.postMessage({ id: 0, ok: true, value: copy.location, heldBack: 0 } satisfies CopyAnswer);
  port.on('message', (call: CopyCall) => {
    let answer: CopyAnswer;
    try {
      const method = copy[call.method] as (...args: unknown[]) => unknown;
      answer = { id: call.id, ok: true, value: method.apply(copy, call.args), heldBack: copy.heldBack };
    } catch (err) {
      answer = { id: call.id, ok: false, error: errorToMessage(err), heldBack: copy.heldBack };
    }
    port.postMessage(answer);
    if (call.method === 'close') port.close();
  });
}
