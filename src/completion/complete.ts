import type { Argument, Command, Option } from 'commander';
import { NOTHING, type Candidate, type Completion } from './protocol.js';
import { argumentSource, commaList, optionSource } from './value-sources.js';

/**
 * Answers `chamberctl __complete -- WORD... CURRENT` from the live commander tree: walks the
 * words the way commander parses them (subcommands, options with values, `--opt=value`,
 * `--`), then completes CURRENT as a subcommand, an option, an option's value or an argument.
 */
export async function complete(
  program: Command,
  words: string[],
  env: Record<string, string | undefined>,
  /** The record fields of a command that takes `--json FIELDS` (commands/shared/json-fields.ts). */
  jsonFieldsOf: (cmd: Command) => readonly string[] | undefined = () => undefined,
): Promise<Completion> {
  const current = words.length > 0 ? words[words.length - 1]! : '';
  const state = walk(program, words.slice(0, -1));
  const { cmd } = state;

  if (state.pending) return valuesOf(state.pending, state, current, '', env);

  // `--json=FIELDS`, and `--json FIELDS` once the command has its operands (else the word
  // after --json is an operand, as the command reads it)
  const fields = state.literal ? undefined : jsonFieldsOf(cmd);
  if (fields && current.startsWith('--json=')) {
    const given = current.slice('--json='.length);
    return withPrefix(filtered(await commaList(fields)({ env, current: given }), given), '--json=');
  }
  if (fields && state.afterJson && !argumentAt(cmd, state.operands.length)) return filtered(await commaList(fields)({ env, current }), current);

  if (!state.literal && /^--[^=]+=/.test(current)) {
    const eq = current.indexOf('=');
    const option = findOption(cmd, current.slice(0, eq));
    if (!option || !(option.required || option.optional)) return NOTHING;
    return valuesOf(option, state, current.slice(eq + 1), current.slice(0, eq + 1), env);
  }

  if (!state.literal && current.startsWith('-')) return filtered(optionCandidates(cmd, state.used), current);

  if (state.helpFor) {
    // `help [command]`: the commands it can explain
    return state.operands.length === 0 ? filtered(commandCandidates(state.helpFor, false), current) : NOTHING;
  }

  const subcommands = commandCandidates(cmd, true);
  if (subcommands.length > 0 && state.operands.length === 0) return filtered(subcommands, current);

  const argument = argumentAt(cmd, state.operands.length);
  if (argument) return valuesOfArgument(argument, state, current, env);
  // Nothing positional left to type: the options are what can follow (none after `--`).
  return state.literal ? NOTHING : filtered(optionCandidates(cmd, state.used), current);
}

interface WalkState {
  cmd: Command;
  /** Positional words given to `cmd` so far. */
  operands: string[];
  /** An option still waiting for its value (the word being completed is that value). */
  pending?: Option;
  /** After `--`: every word is positional. */
  literal: boolean;
  /** Options already given, not offered again. */
  used: Set<Option>;
  /** Set when the words named the implicit `help` command: the command whose subcommands it explains. */
  helpFor?: Command;
  /** The last word was `--json`. */
  afterJson?: boolean;
}

function walk(program: Command, words: string[]): WalkState {
  const state: WalkState = { cmd: program, operands: [], literal: false, used: new Set() };
  let optionalValueFor: Option | undefined;
  for (const word of words) {
    state.afterJson = !state.literal && word === '--json';
    if (state.pending) {
      state.pending = undefined;
      continue;
    }
    if (optionalValueFor) {
      optionalValueFor = undefined;
      // commander gives an optional value the next word unless that looks like an option
      if (!looksLikeOption(word)) continue;
    }
    if (!state.literal && word === '--') {
      state.literal = true;
      continue;
    }
    if (!state.literal && looksLikeOption(word)) {
      const eq = word.startsWith('--') ? word.indexOf('=') : -1;
      const option = findOption(state.cmd, eq > 0 ? word.slice(0, eq) : word);
      if (option) {
        state.used.add(option);
        if (eq < 0 && option.required) state.pending = option;
        else if (eq < 0 && option.optional) optionalValueFor = option;
      }
      continue;
    }
    if (state.operands.length === 0 && !state.helpFor) {
      const sub = findSubcommand(state.cmd, word);
      if (sub) {
        if (sub.name() === 'help' && !state.cmd.commands.includes(sub)) state.helpFor = state.cmd;
        else state.cmd = sub;
        continue;
      }
    }
    state.operands.push(word);
  }
  return state;
}

const looksLikeOption = (word: string) => word.length > 1 && word.startsWith('-');

/** The command's own options, then those of its ancestors (global options work after a subcommand). */
function findOption(cmd: Command, flag: string): Option | undefined {
  for (let c: Command | null = cmd; c; c = c.parent) {
    const found = c.options.find((o) => o.long === flag || o.short === flag);
    if (found) return found;
  }
  return undefined;
}

/** Visible subcommands (hidden ones excluded), plus commander's implicit `help` command. */
function findSubcommand(cmd: Command, word: string): Command | undefined {
  return cmd.createHelp().visibleCommands(cmd).find((c) => c.name() === word || c.aliases().includes(word));
}

function commandCandidates(cmd: Command, withHelp: boolean): Candidate[] {
  return cmd
    .createHelp()
    .visibleCommands(cmd)
    .filter((c) => withHelp || cmd.commands.includes(c))
    .map((c) => ({ value: c.name(), description: c.summary() || firstLine(c.description()) }));
}

/**
 * The options that apply to `cmd`: its own visible ones (with --help) and its ancestors'
 * (except --version, which only makes sense on its own); those already given are left out
 * unless they may repeat.
 */
function optionCandidates(cmd: Command, used: Set<Option>): Candidate[] {
  const options: Option[] = [...cmd.createHelp().visibleOptions(cmd)];
  for (let c = cmd.parent; c; c = c.parent) {
    options.push(...c.options.filter((o) => !o.hidden && o.long !== '--version'));
  }
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const option of options) {
    const flag = option.long ?? option.short;
    if (!flag || seen.has(flag) || (used.has(option) && !option.variadic)) continue;
    seen.add(flag);
    out.push({ value: flag, description: option.description });
  }
  return out;
}

/** The argument that the next positional word fills (a variadic last one takes all the rest). */
function argumentAt(cmd: Command, index: number): Argument | undefined {
  const args = cmd.registeredArguments;
  if (index < args.length) return args[index];
  const last = args[args.length - 1];
  return last?.variadic ? last : undefined;
}

/** `chambers list` for the list subcommand (the path below the program). */
function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

async function valuesOf(
  option: Option,
  state: WalkState,
  current: string,
  prefix: string,
  env: Record<string, string | undefined>,
): Promise<Completion> {
  if (option.argChoices) return withPrefix(filtered(option.argChoices.map((value) => ({ value })), current), prefix);
  const flag = option.long ?? option.short ?? '';
  // Rules name the command that declares the option (the program, for a global one).
  let owner: Command = state.cmd;
  while (owner.parent && !owner.options.includes(option)) owner = owner.parent;
  const source = optionSource(commandPath(owner), flag);
  if (!source) return NOTHING;
  return withPrefix(filtered(await source({ env, current }), current), prefix);
}

async function valuesOfArgument(
  argument: Argument,
  state: WalkState,
  current: string,
  env: Record<string, string | undefined>,
): Promise<Completion> {
  if (argument.argChoices) return filtered(argument.argChoices.map((value) => ({ value })), current);
  const source = argumentSource(commandPath(state.cmd), argument.name());
  if (!source) return NOTHING;
  return filtered(await source({ env, current }), current);
}

function filtered(c: Completion | Candidate[], current: string): Completion {
  const completion = Array.isArray(c) ? { candidates: c, directive: 'nofiles' as const } : c;
  return { ...completion, candidates: completion.candidates.filter((x) => x.value.startsWith(current)) };
}

/** `--type=` + `hq`: the shells replace the whole word, so the candidates carry the flag. */
function withPrefix(c: Completion, prefix: string): Completion {
  return prefix ? { ...c, candidates: c.candidates.map((x) => ({ ...x, value: prefix + x.value })) } : c;
}

const firstLine = (s: string) => s.split('\n')[0] ?? '';
