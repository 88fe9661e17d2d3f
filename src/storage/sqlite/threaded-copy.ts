import { Worker } from 'node:worker_threads';
import { StartError } from '../start-error.js';
import type { Chamber, Event, Member } from '../../contract/index.js';
import type { CopyCounts, CopyStore, LocalChange, SyncSource, SyncState } from '../copy-store.js';
import type { CopyWorkerSpawn } from '../../core/copy-worker-spawn.js';

// A SQLite copy whose statements run on a worker thread (src/storage/sqlite/copy-worker.ts),
// for `sync pull`: node:sqlite is synchronous, so on the main thread every commit of a
// pull's queued rows stopped the HTTP side too, and the server sat idle meanwhile
// (docs/performance.md, "What bounds the ratio"). Each call is a message, run by the worker
// in the order made. A read resolves with its answer. A write resolves at once while fewer
// than AHEAD_ROWS rows are on their way to the worker (else once the worker has caught up),
// so the HTTP side goes on while SQLite commits, and memory stays bounded; a write that
// fails fails the next call, as the in-thread copy's timed commits fail the next one.

export interface CopyWorkerData {
  path: string;
  cacheMiB: number;
}

type CopyMethod = Exclude<keyof CopyStore, 'location' | 'heldBack'>;
export interface CopyCall {
  id: number;
  method: CopyMethod;
  args: unknown[];
}
interface ErrorMessage {
  kind: 'start' | 'other';
  message: string;
  code?: string;
}
export type CopyAnswer = { id: number; heldBack: number } & ({ ok: true; value: unknown } | { ok: false; error: ErrorMessage });

/**
 * An error as a message: its class (storage's own StartError, or any other), text and code.
 * Storage throws no error of the commands': which exit code an error gets is theirs to say.
 */
export function errorToMessage(err: unknown): ErrorMessage {
  const e = err as Error & { code?: unknown };
  return {
    kind: err instanceof StartError ? 'start' : 'other',
    message: e?.message ?? String(err),
    ...(typeof e?.code === 'string' ? { code: e.code } : {}),
  };
}

function errorFromMessage(m: ErrorMessage): Error {
  const err = m.kind === 'start' ? new StartError(m.message) : new Error(m.message);
  if (m.code) Object.assign(err, { code: m.code });
  return err;
}

/** Rows written ahead of the worker at most: a few pages of each chamber a pull reads at once. */
const AHEAD_ROWS = 5_000;

export class ThreadedCopy implements CopyStore {
  heldBack = 0;
  private nextId = 1;
  /** Rows of writes sent and not yet run by the worker. */
  private rowsAhead = 0;
  /** Writers waiting for the worker to catch up. */
  private behind: (() => void)[] = [];
  /** The error of a write nobody waited for: the next call fails with it. */
  private failure: unknown;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  private stopped: Error | undefined;

  private constructor(
    private readonly worker: Worker,
    readonly location: string,
  ) {}

  /** Opens the copy at `path` on a new worker thread; rejects as opening it in this thread would. */
  static open(path: string, cacheMiB: number, spawn: CopyWorkerSpawn): Promise<ThreadedCopy> {
    const worker = new Worker(spawn.script, {
      eval: spawn.eval,
      argv: spawn.argv,
      workerData: { path, cacheMiB } satisfies CopyWorkerData,
      // what the worker allocates lives for one batch at most: a small young generation keeps
      // the second heap from adding much to the process's memory (bench:sync's peak RSS)
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    });
    return new Promise((resolve, reject) => {
      const failed = (err: unknown) => reject(err);
      // a script that does not serve a copy ends without a word
      const exited = (code: number) => reject(new Error(`the thread to write the copy ended before opening it (exit code ${code})`));
      worker.once('error', failed);
      worker.once('exit', exited);
      worker.once('message', (a: CopyAnswer) => {
        worker.off('error', failed);
        worker.off('exit', exited);
        if (!a.ok) {
          void worker.terminate();
          reject(errorFromMessage(a.error));
          return;
        }
        resolve(new ThreadedCopy(worker, a.value as string).listen());
      });
    });
  }

  private listen(): this {
    this.worker.on('message', (a: CopyAnswer) => {
      const w = this.waiting.get(a.id);
      if (!w) return;
      this.waiting.delete(a.id);
      this.heldBack = a.heldBack;
      if (a.ok) w.resolve(a.value);
      else w.reject(errorFromMessage(a.error));
    });
    // a worker that dies (an uncaught error, running out of memory) fails every call waiting on it
    const stop = (err: Error) => {
      this.stopped ??= err;
      for (const w of this.waiting.values()) w.reject(this.stopped);
      this.waiting.clear();
      for (const go of this.behind.splice(0)) go();
    };
    this.worker.on('error', stop);
    this.worker.on('exit', (code) => stop(new Error(`the thread writing the copy stopped (exit code ${code})`)));
    return this;
  }

  private send<T>(method: CopyMethod, args: unknown[]): Promise<T> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ id, method, args } satisfies CopyCall);
    });
  }

  private takeFailure(): unknown {
    const f = this.failure;
    this.failure = undefined;
    return f;
  }

  /** A call answered by the worker (after every call made before it). */
  private async call<T>(method: CopyMethod, ...args: unknown[]): Promise<T> {
    const earlier = this.takeFailure();
    if (earlier !== undefined) throw earlier;
    const value = await this.send<T>(method, args);
    const meanwhile = this.takeFailure(); // a write sent before this call failed
    if (meanwhile !== undefined) throw meanwhile;
    return value;
  }

  /** A write of `rows` rows: resolves as soon as the worker is less than AHEAD_ROWS behind. */
  private write(method: CopyMethod, rows: number, ...args: unknown[]): Promise<void> {
    const earlier = this.takeFailure();
    if (earlier !== undefined) return Promise.reject(earlier);
    this.rowsAhead += rows;
    this.send<void>(method, args)
      .catch((err: unknown) => {
        this.failure ??= err;
      })
      .finally(() => {
        this.rowsAhead -= rows;
        if (this.rowsAhead < AHEAD_ROWS) for (const go of this.behind.splice(0)) go();
      });
    if (this.rowsAhead < AHEAD_ROWS) return Promise.resolve();
    return new Promise<void>((resolve) => this.behind.push(resolve)).then(() => {
      const f = this.takeFailure();
      if (f !== undefined) throw f;
    });
  }

  state = () => this.call<SyncState>('state');
  holdsOtherData = () => this.call<boolean>('holdsOtherData');
  startRun = (source: SyncSource) => this.call<number>('startRun', source);
  beginChamberList = () => this.call<void>('beginChamberList');
  endChamberList = (ok: boolean) => this.call<void>('endChamberList', ok);
  upsertChambers = (records: Chamber[], run: number) => this.write('upsertChambers', records.length, records, run);
  upsertMembers = (records: Member[], run: number) => this.write('upsertMembers', records.length, records, run);
  upsertEvents = (records: Event[], run: number) => this.write('upsertEvents', records.length, records, run);
  flush = () => this.call<void>('flush');
  chambersToVisit = (run: number, afterId: string, limit: number) => this.call<string[]>('chambersToVisit', run, afterId, limit);
  runProgress = (run: number) => this.call<{ seen: number; done: number }>('runProgress', run);
  finishChamber = (chamberId: string, run: number, events: boolean) => this.write('finishChamber', 1, chamberId, run, events);
  finishRun = (run: number, pulledAt: string, events: boolean) => this.call<string[]>('finishRun', run, pulledAt, events);
  removeUnlessReferenced = (id: string) => this.call<boolean>('removeUnlessReferenced', id);
  counts = () => this.call<CopyCounts>('counts');
  changes = () => this.call<LocalChange[]>('changes');
  change = (id: string) => this.call<LocalChange | undefined>('change', id);
  changeFor = (recordId: string) => this.call<LocalChange | undefined>('changeFor', recordId);
  discard = (changeId: string) => this.call<'discarded' | 'missing' | { dependents: string[] }>('discard', changeId);
  markAttempted = (changeId: string, at: string, remoteBefore?: number) => this.call<void>('markAttempted', changeId, at, remoteBefore);
  markRejected = (changeId: string, error: string) => this.call<void>('markRejected', changeId, error);
  settleChamber = (change: LocalChange, remote: Chamber) => this.call<void>('settleChamber', change, remote);
  settleMember = (change: LocalChange, remote: Member) => this.call<void>('settleMember', change, remote);

  /**
   * Commits the open batch and closes the copy, then ends the thread: always, so that a
   * failed write (reported here if nothing reported it yet) never leaves the process waiting
   * on a thread.
   */
  async close(): Promise<void> {
    if (this.stopped) return;
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    let failed: unknown;
    try {
      await this.send<void>('close', []); // the worker ends after answering, even with an error
    } catch (err) {
      failed = err;
    }
    await exited;
    const earlier = this.takeFailure() ?? failed;
    if (earlier !== undefined) throw earlier;
  }
}
