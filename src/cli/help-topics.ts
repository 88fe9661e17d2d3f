// `chamberctl help TOPIC`: what is not one command's, as `gh help environment` and
// `gh help exit-codes` do; and when a command line shows help at all, so that the texts of
// help (help-texts.ts) are loaded then and only then.
import type { Command } from 'commander';
import { commandPath, visibleSubcommands } from './command-tree.js';

/**
 * The topics and what each is about, for `chamberctl --help` and the message of an unknown
 * word; their texts (src/cli/topics/) are loaded only to be shown (help-texts.ts).
 */
export const TOPICS: Readonly<Record<string, string>> = {
  'exit-codes': 'what the exit status of every command means',
  environment: 'the environment variables and files chamberctl reads',
  output: 'tables, TSV, JSON and CSV; --json FIELDS; colour',
  'csv-format': 'the CSV file that members import reads',
  'api-versions': 'which API version a command calls',
  offline: 'working on a copy: sync, serve, snapshots',
  http: 'timeouts, retries and proxies; what chamberctl assumes of a server',
  destructive: 'the commands that delete or overwrite, and what they ask first',
};

/** The lines of `chamberctl --help` that name the topics. */
export function topicsHelp(): string {
  const width = Math.max(...Object.keys(TOPICS).map((n) => n.length)) + 2;
  const lines = Object.entries(TOPICS).map(([name, summary]) => `  $ chamberctl help ${name.padEnd(width)}# ${summary}`);
  return `\nHelp topics:\n${lines.join('\n')}\n`;
}

/** Global options that take a value, to find the words after them. */
const VALUE_OPTIONS = new Set(['--profile', '--api-version', '--base-url']);

/**
 * What `chamberctl [global options] help WORDS...` asks for: a topic (its text), a path of
 * commands (the command line of its --help), or a word that is neither (an error message);
 * undefined when the command line is not a `help` of anything.
 */
export function helpRequest(
  argv: readonly string[],
  program: Command,
): { topic: string } | { unknown: string } | { argv: string[] } | undefined {
  let i = 0;
  while (i < argv.length && argv[i]!.startsWith('-')) i += VALUE_OPTIONS.has(argv[i]!) ? 2 : 1;
  if (argv[i] !== 'help') return undefined;
  const words = argv.slice(i + 1).filter((w) => !w.startsWith('-'));
  if (words.length === 0) return undefined;
  if (words.length === 1 && Object.hasOwn(TOPICS, words[0]!)) return { topic: words[0]! };
  if (words.length === 1 && words[0] === 'help') return undefined;
  let cmd = program;
  for (const word of words) {
    const sub = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!sub || !visibleSubcommands(cmd).includes(sub)) {
      const where = cmd === program ? '' : ` ${commandPath(cmd)}`;
      const names = visibleSubcommands(cmd).map((c) => c.name());
      const topics = cmd === program ? `; topics: ${Object.keys(TOPICS).join(', ')}` : '';
      return { unknown: `no help for "${words.join(' ')}": "${word}" is not a command of chamberctl${where}${topics}; commands: ${names.join(', ')}` };
    }
    cmd = sub;
  }
  // `help chambers list` is `chambers list --help` (commander's own goes one level only)
  return { argv: [...argv.slice(0, i), ...words, '--help'] };
}

/**
 * Whether commander may show help for this command line: `-h`/`--help`, `help ...`, or
 * words that end at a group of commands (`chamberctl`, `chamberctl members`), which commander
 * answers with the group's help. Loading the texts for a command line that turns out not
 * to need them costs time only.
 */
export function needsHelpTexts(argv: readonly string[], program: Command): boolean {
  const end = argv.includes('--') ? argv.indexOf('--') : argv.length;
  const words = argv.slice(0, end);
  if (words.includes('-h') || words.includes('--help')) return true;
  let cmd = program;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word.startsWith('-')) {
      if (VALUE_OPTIONS.has(word)) i++;
      continue;
    }
    if (cmd === program && word === 'help') return true;
    const sub = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!sub) return false; // an operand, or a word commander refuses
    cmd = sub;
  }
  return cmd.commands.length > 0;
}
