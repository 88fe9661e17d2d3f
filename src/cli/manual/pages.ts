// The manual's pages as plain data, read off the live commander tree (what buildProgram
// declares) and the help texts (help-texts.ts): the Markdown and roff renderers work from
// this and from nothing else, so both say what --help says.
import { PassThrough } from 'node:stream';
import { Help, type Argument, type Command, type Option } from 'commander';
import type { CommandHelp } from '../../commands/shared/command-help.js';
import { jsonFieldsOf } from '../../commands/shared/json-fields.js';
import type { CliContext } from '../../core/context.js';
import { commandPath, visibleCommandsBelow, visibleSubcommands } from '../command-tree.js';
import { COMMAND_HELP, TOPIC_TEXTS } from '../help-texts.js';
import { TOPICS } from '../help-topics.js';
import { buildProgram } from '../program.js';

export interface TermDoc {
  /** As --help shows it: `-X, --method <method>`, `chamber-id`. */
  term: string;
  description: string;
  /** The values it takes (commander's choices, from src/contract/values.ts). */
  choices?: readonly string[];
  /** The default, where --help shows one. */
  default?: string;
}

export interface CommandPage {
  /** The words after chamberctl (`members import`); '' for chamberctl itself. */
  path: string;
  /** `chamberctl-members-import`: the man page's name, and the manual page's file name. */
  name: string;
  /** One line: the command's description. */
  summary: string;
  /** `chamberctl members import [options] <chamber-id> <file>` */
  usage: string;
  /** The heading chamberctl --help lists the command under (`Directory`), if any. */
  group: string;
  arguments: TermDoc[];
  options: TermDoc[];
  jsonFields?: readonly string[];
  subcommands: CommandPage[];
  help: CommandHelp;
}

export interface TopicPage {
  topic: string;
  /** `chamberctl-help-exit-codes`: the man page's name. */
  name: string;
  summary: string;
  /** What `chamberctl help TOPIC` prints. */
  text: string;
}

export interface Manual {
  version: string;
  program: CommandPage;
  /** Every visible command below chamberctl, each before its subcommands. */
  commands: CommandPage[];
  globalOptions: TermDoc[];
  topics: TopicPage[];
}

/** The manual of the command tree that `chamberctl` runs. */
export function readManual(version: string): Manual {
  const program = buildProgram(silentContext(), version);
  const pages = new Map<Command, CommandPage>();
  const pageOf = (cmd: Command): CommandPage => {
    const page = commandPage(cmd, pageOf);
    pages.set(cmd, page);
    return page;
  };
  const root = pageOf(program);
  return {
    version,
    program: root,
    commands: visibleCommandsBelow(program).map((c) => pages.get(c)!),
    globalOptions: program.options.filter((o) => !o.hidden).map(optionDoc),
    topics: Object.entries(TOPICS).map(([topic, summary]) => ({ topic, name: `chamberctl-help-${topic}`, summary, text: TOPIC_TEXTS[topic]! })),
  };
}

function commandPage(cmd: Command, pageOf: (cmd: Command) => CommandPage): CommandPage {
  const path = commandPath(cmd);
  const help = COMMAND_HELP[path];
  if (!help) throw new Error(`chamberctl ${path} has no help: add it to its noun's help.ts`);
  const fields = jsonFieldsOf(cmd);
  return {
    path,
    name: ['chamberctl', ...(path ? path.split(' ') : [])].join('-'),
    summary: cmd.description(),
    usage: new Help().commandUsage(cmd),
    group: cmd.helpGroup().replace(/:$/, ''),
    arguments: cmd.registeredArguments.map(argumentDoc),
    // the command's own; -h is every command's, and the global ones are listed once
    options: cmd.options.filter((o) => !o.hidden && o.long !== '--help').map(optionDoc),
    ...(fields ? { jsonFields: fields } : {}),
    subcommands: visibleSubcommands(cmd).map(pageOf),
    help,
  };
}

function optionDoc(option: Option): TermDoc {
  // as commander's --help: a default shown for options that take a value
  const shown = option.defaultValue !== undefined && (option.required || option.optional);
  const value = option.defaultValueDescription ?? (typeof option.defaultValue === 'string' ? option.defaultValue : JSON.stringify(option.defaultValue));
  return {
    term: option.flags,
    description: option.description,
    ...(option.argChoices ? { choices: option.argChoices } : {}),
    ...(shown && !(Array.isArray(option.defaultValue) && option.defaultValue.length === 0) ? { default: value } : {}),
  };
}

function argumentDoc(argument: Argument): TermDoc {
  return {
    term: argument.name() + (argument.variadic ? '...' : ''),
    description: argument.description,
    ...(argument.argChoices ? { choices: argument.argChoices } : {}),
  };
}

/** buildProgram wants a context; nothing runs, so its streams lead nowhere. */
function silentContext(): CliContext {
  return {
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    env: {},
    now: () => new Date(0),
    onSignal: () => () => undefined,
  };
}
