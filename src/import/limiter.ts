/**
 * At most `max` tasks at a time. A reader that awaits `slot()` before it takes the next row
 * can never run more than `max` rows ahead of the network: backpressure.
 */
export class Limiter {
  #active = 0;
  #slotWaiters: Array<() => void> = [];
  #idleWaiters: Array<() => void> = [];

  constructor(readonly max: number) {}

  get active(): number {
    return this.#active;
  }

  /** Resolves when fewer than `max` tasks run. */
  async slot(): Promise<void> {
    while (this.#active >= this.max) await new Promise<void>((resolve) => this.#slotWaiters.push(resolve));
  }

  /** Starts `task` (which must not reject) now; call after `slot()`. */
  run(task: () => Promise<void>): void {
    this.#active++;
    void task().finally(() => {
      this.#active--;
      this.#slotWaiters.shift()?.();
      if (this.#active === 0) for (const wake of this.#idleWaiters.splice(0)) wake();
    });
  }

  /** Resolves when no task runs. */
  async idle(): Promise<void> {
    if (this.#active === 0) return;
    await new Promise<void>((resolve) => this.#idleWaiters.push(resolve));
  }
}
