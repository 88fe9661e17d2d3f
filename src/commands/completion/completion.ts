import type { Command } from 'commander';
import type { CliContext } from '../../core/context.js';
import { complete } from '../../completion/complete.js';
import { NOTHING, formatCompletion } from '../../completion/protocol.js';
import { completionScript } from '../../completion/scripts.js';
import { jsonFieldsOf } from '../shared/json-fields.js';
import type { Shell } from '../../completion/shells.js';

/** `chamberctl completion SHELL`: the committed script, byte for byte. */
export function runCompletion(shell: Shell, ctx: CliContext): void {
  ctx.stdout.write(completionScript(shell));
}

/**
 * `chamberctl __complete -- WORDS...`: candidates and a directive on stdout. A shell
 * completion must never print an error or a stack trace into the user's prompt, so any
 * failure answers "no candidates".
 */
export async function runComplete(program: Command, words: string[], ctx: CliContext): Promise<void> {
  let answer = NOTHING;
  try {
    answer = await complete(program, words, ctx.env, jsonFieldsOf);
  } catch {
    // e.g. a config file that is not JSON: no profile names, no message
  }
  ctx.stdout.write(formatCompletion(answer));
}
