/**
 * Group commit: writes requested during one turn of the event loop run together in one
 * SQLite transaction, so a burst of concurrent inserts pays for one commit (and writes each
 * shared page, such as the count row or the tail of an index, once) instead of one each.
 * Every caller still gets its own result, after the commit.
 */
export class WriteBatcher {
  private queue: { run: () => unknown; resolve: (v: unknown) => void; reject: (e: unknown) => void }[] = [];
  private scheduled = false;

  constructor(private readonly transaction: (fn: () => void) => void) {}

  run<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run: write, resolve: resolve as (v: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    const jobs = this.queue;
    this.queue = [];
    this.scheduled = false;
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      this.transaction(() => {
        for (const job of jobs) {
          // A failing statement rolls back only itself; the others in the batch still commit.
          try {
            outcomes.push({ ok: true, value: job.run() });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      for (const job of jobs) job.reject(error); // the commit itself failed: nothing was written
      return;
    }
    jobs.forEach((job, i) => {
      const o = outcomes[i]!;
      if (o.ok) job.resolve(o.value);
      else job.reject(o.error);
    });
  }
}
