import type { OutStream } from '../core/context.js';

/** A request that answers faster than this shows no spinner at all (no flicker). */
export const SPINNER_DELAY_MS = 250;

/** The text of a spinner, which may change while it spins (a retry says so). */
export class SpinnerLine {
  #text: string;
  #listener: ((text: string) => void) | undefined;
  constructor(readonly base: string) {
    this.#text = base;
  }
  get text(): string {
    return this.#text;
  }
  set(text: string): void {
    this.#text = text;
    this.#listener?.(text);
  }
  /** The running spinner follows the text from now on. */
  follow(listener: (text: string) => void): void {
    this.#listener = listener;
  }
}

/**
 * Awaits `work`, showing an ora spinner on `stream` if it takes longer than `delayMs`.
 * Only for a terminal: the caller passes `enabled = stderr.isTTY`. ora is imported only
 * when the spinner is actually due, so quick commands never load it.
 */
export async function withSpinner<T>(
  work: Promise<T>,
  opts: { stream: OutStream; enabled: boolean; text: string | SpinnerLine; color: boolean; delayMs?: number },
): Promise<T> {
  // A terminal that says it has 0 columns (a pseudo-terminal nobody sized) would make ora
  // count an endless number of lines to clear: no spinner there.
  if (!opts.enabled || opts.stream.columns === 0) return work;
  let finished = false;
  let stop: (() => void) | undefined;
  const timer = setTimeout(() => {
    void import('ora').then(({ default: ora }) => {
      if (finished) return;
      const line = typeof opts.text === 'string' ? new SpinnerLine(opts.text) : opts.text;
      const spinner = ora({
        text: line.text,
        stream: opts.stream as NodeJS.WritableStream,
        isEnabled: true,
        // raw-mode stdin would swallow Ctrl+C handling; keep the terminal as it is
        discardStdin: false,
        color: opts.color ? 'cyan' : false,
      }).start();
      line.follow((text) => {
        spinner.text = text;
      });
      stop = () => spinner.stop();
    });
  }, opts.delayMs ?? SPINNER_DELAY_MS);
  try {
    return await work;
  } finally {
    finished = true;
    clearTimeout(timer);
    stop?.();
  }
}
