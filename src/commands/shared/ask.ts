import type { CliContext, GlobalOptions } from '../../core/context.js';
import { CliError, ExitCode } from '../../core/exit-codes.js';
import { promptsEnabled } from '../../config/defaults.js';

// Prompts for the required options a person left out, on a terminal only (as gh does):
// without one, a missing option stays the usage error commander would give (exit 2), never
// a prompt that waits for an answer that cannot come.

export interface Choice<T> {
  name: string;
  value: T;
  description?: string;
}

export interface Asker {
  /** A line of text; `validate` returns true or the message to show under it. */
  text(message: string, opts?: { optional?: boolean; validate?: (value: string) => true | string }): Promise<string>;
  select<T>(message: string, choices: Choice<T>[]): Promise<T>;
  /** Yes or no; the default is no. */
  confirm(message: string): Promise<boolean>;
}

/** Prompts are allowed only when a person can answer them: stdin and stderr are terminals. */
export function canPrompt(ctx: CliContext): boolean {
  return Boolean(ctx.stdin.isTTY && ctx.stderr.isTTY);
}

/** A contract schema as a prompt's check: true, or the message of the first problem. */
export const checkWith =
  (schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { message: string }[] } } }) =>
  (value: string): true | string => {
    const r = schema.safeParse(value);
    return r.success || (r.error?.issues[0]?.message ?? 'not valid');
  };

/**
 * The usage error of the required options that are missing, every one of them at once,
 * worded as commander words one (`required option '--email <email>' not specified`);
 * `details` adds what else is wrong with the options given, so one run tells it all.
 */
export function missingOptions(flags: string[], details: string[] = []): CliError {
  const quoted = flags.map((f) => `'${f}'`);
  const list = quoted.length === 1 ? `option ${quoted[0]}` : `options ${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
  return new CliError(`required ${list} not specified`, ExitCode.USAGE, details.length ? ['also:', ...details.map((d) => `  ${d}`)] : []);
}

/**
 * The keys of `required` (option key → its flags) that `opts` lacks. When no one can be
 * asked (no terminal, or `prompt disabled`), a usage error naming all of them, with the
 * `problems` of the options given (as `checkGiven` finds them).
 */
export function checkMissing(
  opts: object,
  required: Record<string, string>,
  ctx: CliContext,
  globals: GlobalOptions,
  problems: string[] = [],
): string[] {
  const missing = Object.keys(required).filter((k) => (opts as Record<string, unknown>)[k] === undefined);
  if (missing.length && !(canPrompt(ctx) && promptsEnabled(globals, ctx))) throw missingOptions(missing.map((k) => required[k]!), problems);
  return missing;
}

export async function openAsker(ctx: CliContext): Promise<Asker> {
  const prompts = await import('@inquirer/prompts');
  const io = { input: ctx.stdin, output: ctx.stderr };
  const cancelled = (err: unknown): never => {
    // Ctrl-C at a prompt is Ctrl-C as anywhere else: 130, as a shell reports SIGINT
    if (err instanceof Error && err.name === 'ExitPromptError') throw new CliError('cancelled; nothing was sent', ExitCode.INTERRUPTED);
    throw err;
  };
  return {
    async text(message, opts = {}) {
      const answer = await prompts
        .input(
          {
            message,
            required: !opts.optional,
            ...(opts.validate ? { validate: (v: string) => (opts.optional && v.trim() === '' ? true : opts.validate!(v.trim())) } : {}),
          },
          io,
        )
        .catch(cancelled);
      return answer.trim();
    },
    async select(message, choices) {
      // An answer folds the list into one line (`✔ Type hq`); Ctrl-C would leave the whole
      // list on the screen above the error, so then the prompt is cleared. inquirer reads
      // `clearPromptOnDone` when the prompt ends, after the keypress has been seen.
      let interrupted = false;
      const onKey = (_: unknown, key?: { ctrl?: boolean; name?: string }) => {
        if (key?.ctrl && key.name === 'c') interrupted = true;
      };
      const context = {
        ...io,
        get clearPromptOnDone() {
          return interrupted;
        },
      };
      const answer = prompts.select({ message, choices, pageSize: 10 }, context);
      ctx.stdin.on('keypress', onKey); // the prompt's terminal emits keypresses from here on
      try {
        return await answer.catch(cancelled);
      } finally {
        ctx.stdin.off('keypress', onKey);
      }
    },
    async confirm(message) {
      return prompts.confirm({ message, default: false }, io).catch(cancelled);
    },
  };
}

/**
 * The rule of every command that destroys or overwrites something (`chamberctl help
 * destructive`): with --yes it goes on; on a terminal it asks (default no: `declined`, exit 1;
 * Ctrl-C: `cancelled; declined`, exit 130); off one it refuses, exit 2 with nothing changed,
 * saying what it would destroy and that --yes does it (as `gh repo delete` does).
 */
export async function confirmDestructive(
  ctx: CliContext,
  opts: { yes?: boolean; question: string; offTerminal: string; declined: string },
): Promise<void> {
  if (opts.yes) return;
  if (!canPrompt(ctx)) throw new CliError(`${opts.offTerminal}: pass --yes to do it without a terminal to confirm on`, ExitCode.USAGE);
  let yes: boolean;
  try {
    yes = await (await openAsker(ctx)).confirm(opts.question);
  } catch (err) {
    if (err instanceof CliError && err.exitCode === ExitCode.INTERRUPTED) throw new CliError(`cancelled; ${opts.declined}`, ExitCode.INTERRUPTED);
    throw err;
  }
  if (!yes) throw new CliError(opts.declined, ExitCode.FAILURE);
}
