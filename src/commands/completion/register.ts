import { Argument, type Command } from 'commander';
import type { CliContext } from '../../core/context.js';
import { SHELLS, type Shell } from '../../completion/shells.js';

/** completion bash|zsh|fish, and the hidden __complete used by the scripts. */
export function registerShellCommands(program: Command, ctx: CliContext): void {
  program
    .command('completion')
    .description('Print the shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'shell to complete for').choices(SHELLS))
    .action(async (shell: Shell) => {
      const { runCompletion } = await import('./completion.js');
      runCompletion(shell, ctx);
    });

  program
    .command('__complete', { hidden: true })
    .description('Print the completions of a partial command line (used by the completion scripts)')
    .argument('[words...]', 'the words after chamberctl up to the cursor; the last one is being completed')
    .helpOption(false)
    .addHelpText(
      'after',
      `
Protocol: src/completion/README.md. Candidate lines (VALUE or VALUE<TAB>DESCRIPTION), then
:nofiles or :files (the shell should also complete file names).

Examples:
  $ chamberctl __complete -- events list ch_1 --status ''`,
    )
    .action(async (words: string[] = []) => {
      const { runComplete } = await import('./completion.js');
      await runComplete(program, words, ctx);
    });
}
