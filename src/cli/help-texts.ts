// The texts of help: each command's (its noun's help.ts), the program's and the topics'.
// Loaded by run() only when help is shown (help-topics.ts's needsHelpTexts), and by the
// generator of the manual; a command that does its work never loads them.
import type { Command } from 'commander';
import type { CommandHelp, ExitStatus } from '../commands/shared/command-help.js';
import { examples } from '../commands/shared/help-text.js';
import { API_HELP } from '../commands/api/help.js';
import { CHAMBERS_HELP } from '../commands/chambers/help.js';
import { MEMBERS_HELP } from '../commands/members/help.js';
import { EVENTS_HELP } from '../commands/events/help.js';
import { AUTH_HELP } from '../commands/auth/help.js';
import { SERVE_HELP } from '../commands/serve/help.js';
import { SYNC_HELP } from '../commands/sync/help.js';
import { SNAPSHOT_HELP } from '../commands/snapshot/help.js';
import { CLIENTS_HELP } from '../commands/clients/help.js';
import { AUDIT_HELP } from '../commands/audit/help.js';
import { COMPLETION_HELP } from '../commands/completion/help.js';
import { commandPath, visibleCommandsBelow } from './command-tree.js';
import { topicsHelp } from './help-topics.js';
import { PROGRAM_HELP } from './program-help.js';
import { reflow } from './manual/manual-text.js';
import { TOPIC_TEXTS as DECLARED_TOPICS } from './topics/index.js';

const DECLARED: Readonly<Record<string, CommandHelp>> = {
  '': PROGRAM_HELP,
  ...CHAMBERS_HELP,
  ...MEMBERS_HELP,
  ...EVENTS_HELP,
  ...API_HELP,
  ...AUTH_HELP,
  ...SERVE_HELP,
  ...SYNC_HELP,
  ...SNAPSHOT_HELP,
  ...CLIENTS_HELP,
  ...AUDIT_HELP,
  ...COMPLETION_HELP,
};

/**
 * Every command's help by its path (`members import`); '' is chamberctl itself. Texts are
 * filled to 80 columns here, so that their sources need not be.
 */
export const COMMAND_HELP: Readonly<Record<string, CommandHelp>> = Object.fromEntries(
  Object.entries(DECLARED).map(([path, help]) => [path, help.description ? { ...help, description: reflow(help.description) } : help]),
);

/** What `chamberctl help TOPIC` prints, filled to 80 columns. */
export const TOPIC_TEXTS: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(DECLARED_TOPICS).map(([name, text]) => [name, reflow(text)]));

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
