import type { CliContext, OutStream } from '../core/context.js';
import { outputSettings, type OutputSettings } from './settings.js';
import { Sink } from './sink.js';
import { SpinnerLine, withSpinner } from './spinner.js';
import { createStyle, type Style } from './style.js';

/** Everything a command needs to print, decided once per command run. */
export interface Output {
  settings: OutputSettings;
  /** stdout, with backpressure; `closed` once the reader went away. */
  stdout: Sink;
  stderr: OutStream;
  /** Styles for text on stdout and on stderr (identity when that stream gets no colour). */
  out: Style;
  err: Style;
  /** Awaits `work` with a spinner on a terminal's stderr when it takes over 250 ms. */
  spin<T>(text: string, work: Promise<T>): Promise<T>;
  /** A request of the work being spun is retried: the spinner line says so. */
  retrying(notice: { attempt: number; of: number; reason: string }): void;
  /** A line for a person (footer, hint) on stderr, only when stderr is a terminal. */
  note(line: string): void;
}

export async function createOutput(
  globals: { json?: boolean; color?: boolean; verbose?: boolean; format?: OutputSettings['mode']; wide?: boolean; jsonFields?: string[]; raw?: boolean },
  ctx: Pick<CliContext, 'stdout' | 'stderr' | 'env'>,
): Promise<Output> {
  const settings = outputSettings(globals, ctx);
  const [out, err] = await Promise.all([createStyle(settings.stdoutColor), createStyle(settings.stderrColor)]);
  // the line of the spinner in progress, whose text a retry changes
  let line: SpinnerLine | undefined;
  return {
    settings,
    stdout: new Sink(ctx.stdout),
    stderr: ctx.stderr,
    out,
    err,
    // --verbose writes the HTTP exchanges to stderr, which a spinner would garble
    async spin(text, work) {
      const mine = new SpinnerLine(text);
      line = mine;
      try {
        return await withSpinner(work, { stream: ctx.stderr, enabled: settings.stderrIsTTY && !globals.verbose, text: mine, color: err.enabled });
      } finally {
        if (line === mine) line = undefined;
      }
    },
    retrying(notice) {
      line?.set(`${line.base.replace(/…$/, '')}: retrying (${notice.attempt}/${notice.of}) after ${notice.reason}…`);
    },
    note(line) {
      if (settings.stderrIsTTY) ctx.stderr.write(`${err.dim(line)}\n`);
    },
  };
}
