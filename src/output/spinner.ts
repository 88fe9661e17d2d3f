import type { OutStream } from '../core/context.js';

/** A request that answers faster than this shows no spinner at all (no flicker). */
export const SPINNER_DELAY_MS = 250;

/**
 * Awaits `work`, showing an ora spinner on `stream` if it takes longer than `delayMs`.
 * Only for a terminal: the caller passes `enabled = stderr.isTTY`. ora is imported only
 * when the spinner is actually due, so quick commands never load it.
 */
export async function withSpinner<T>(
  work: Promise<T>,
  opts: { stream: OutStream; enabled: boolean; text: string; color: boolean; delayMs?: number },
): Promise<T> {
  if (!opts.enabled) return work;
  let finished = false;
  let stop: (() => void) | undefined;
  const timer = setTimeout(() => {
    void import('ora').then(({ default: ora }) => {
      if (finished) return;
      const spinner = ora({
        text: opts.text,
        stream: opts.stream as NodeJS.WritableStream,
        isEnabled: true,
        // raw-mode stdin would swallow Ctrl+C handling; keep the terminal as it is
        discardStdin: false,
        color: opts.color ? 'cyan' : false,
      }).start();
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
