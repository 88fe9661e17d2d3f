import type { CliContext, GlobalOptions } from '../../core/context.js';
import { CliError, ExitCode, usageError } from '../../core/exit-codes.js';
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

/** The usage error of a required option, worded as commander words it. */
export const missingOption = (flags: string) => usageError(`required option '${flags}' not specified`);

/**
 * The first of `required` (option key → its flags) that `opts` lacks, as a usage error when
 * no one can be asked; undefined when nothing is missing.
 */
export function checkMissing(opts: object, required: Record<string, string>, ctx: CliContext, globals: GlobalOptions): string[] {
  const missing = Object.keys(required).filter((k) => (opts as Record<string, unknown>)[k] === undefined);
  if (missing.length && !(canPrompt(ctx) && promptsEnabled(globals, ctx))) throw missingOption(required[missing[0]!]!);
  return missing;
}

export async function openAsker(ctx: CliContext): Promise<Asker> {
  const prompts = await import('@inquirer/prompts');
  const io = { input: ctx.stdin, output: ctx.stderr };
  const cancelled = (err: unknown): never => {
    if (err instanceof Error && err.name === 'ExitPromptError') throw new CliError('cancelled; nothing was sent', ExitCode.FAILURE);
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
      return prompts.select({ message, choices, pageSize: 10 }, io).catch(cancelled);
    },
    async confirm(message) {
      return prompts.confirm({ message, default: false }, io).catch(cancelled);
    },
  };
}
