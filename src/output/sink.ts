import type { OutStream } from '../core/context.js';

/**
 * Writes to stdout with backpressure, so `--all` over 100k items keeps memory flat: a
 * write that fills the stream's buffer waits for 'drain'. A reader that goes away
 * (`chamberctl ... | head`) is not an error: the sink turns `closed` and callers stop.
 */
export class Sink {
  #closed = false;
  #failure: Error | undefined;
  #waiters = new Set<() => void>();

  constructor(readonly stream: OutStream) {
    stream.on('error', this.#onError);
  }

  get closed(): boolean {
    return this.#closed;
  }

  async write(text: string): Promise<void> {
    if (this.#failure) throw this.#failure;
    if (this.#closed || text === '') return;
    if (this.stream.write(text)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.stream.off('drain', done);
        this.#waiters.delete(done);
        resolve();
      };
      this.#waiters.add(done);
      this.stream.on('drain', done);
    });
    if (this.#failure) throw this.#failure;
  }

  #onError = (err: NodeJS.ErrnoException) => {
    // EPIPE: the reader is gone, which ends the output normally; anything else fails the command
    if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') this.#failure = err;
    this.#closed = true;
    for (const wake of this.#waiters) wake();
  };
}
