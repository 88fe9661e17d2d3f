// The commands a user sees, as help, the manual and its tests walk them: hidden ones
// (`__complete`, the refused verbs) and commander's implicit `help` left out.
import type { Command } from 'commander';

const isHidden = (cmd: Command) => (cmd as Command & { _hidden?: boolean })._hidden === true;

/** The visible subcommands of `cmd`, in the order they were declared. */
export const visibleSubcommands = (cmd: Command): Command[] => cmd.commands.filter((c) => !isHidden(c));

/** Every visible command below `cmd`, each before its subcommands. */
export function visibleCommandsBelow(cmd: Command): Command[] {
  return visibleSubcommands(cmd).flatMap((c) => [c, ...visibleCommandsBelow(c)]);
}

/** A command's words after `chamberctl` (`members import`); '' for the program itself. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}
