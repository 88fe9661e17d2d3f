// The texts of help: each command's (its noun's help.ts), the program's and the topics'.
// Loaded by run() only when help is shown (help-topics.ts's needsHelpTexts), and by the
// generator of the manual; a command that does its work never loads them.
import type { Command } from 'commander';
import type { CommandHelp, ExitStatus } from '../commands/shared/command-help.js';
import { examples } from '../commands/shared/help-text.js';
import { API_HELP } from '../commands/api/help.js';
import { commandPath, visibleCommandsBelow } from './command-tree.js';
import { topicsHelp } from './help-topics.js';
import { PROGRAM_HELP } from './program-help.js';
import { TOPIC_TEXTS } from './topics/index.js';

/** Every command's help by its path (`members import`); '' is chamberctl itself. */
export const COMMAND_HELP: Readonly<Record<string, CommandHelp>> = {
  '': PROGRAM_HELP,
  ...API_HELP,
};

export { TOPIC_TEXTS };

/** Adds each command's help to its --help, after the options (and the JSON fields). */
export function attachHelpTexts(program: Command): void {
  for (const cmd of [program, ...visibleCommandsBelow(program)]) {
    const help = COMMAND_HELP[commandPath(cmd)];
    if (!help) continue;
    cmd.addHelpText('after', terminalHelp(help) + (cmd === program ? topicsHelp() : ''));
  }
}

/** The description, the examples, the exit codes and what to see also, as --help ends. */
export function terminalHelp(help: CommandHelp): string {
  let text = help.description ? `\n${help.description.trimEnd()}\n` : '';
  text += examples([...help.examples]);
  if (help.exitCodes?.length) text += `\nExit codes:\n${help.exitCodes.map(exitCodeLine).join('')}`;
  if (help.seeAlso?.length) text += `\nSee also: ${help.seeAlso.map((s) => `chamberctl ${s}`).join(', ')}\n`;
  return text;
}

/** `  4    the chamber does not exist`, wrapped within 80 columns under its text. */
function exitCodeLine([code, when]: ExitStatus): string {
  const indent = 7;
  const lines: string[] = [];
  let line = '';
  for (const word of when.split(/\s+/)) {
    if (line && indent + line.length + 1 + word.length > 80) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  lines.push(line);
  return `  ${String(code).padEnd(indent - 2)}${lines.join(`\n${' '.repeat(indent)}`)}\n`;
}
