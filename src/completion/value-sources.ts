// Values of options and arguments that commander cannot tell (no `.choices()`): a small
// table keyed by command path and flag or argument name. Values from the contract come from
// its plain lists (src/contract/values.ts), which load no zod.
// test/completion/value-sources.test.ts checks every entry names a real option or argument.
import { CHAMBER_INCLUDES } from '../contract/values.js';
import { profileCandidates } from './profile-names.js';
import type { Candidate, Completion } from './protocol.js';

export interface SourceContext {
  env: Record<string, string | undefined>;
  /** The word being completed (after any `--flag=`). */
  current: string;
}

export type ValueSource = (ctx: SourceContext) => Promise<Completion>;

const profiles: ValueSource = async ({ env }) => ({ candidates: profileCandidates(env), directive: 'nofiles' });

const files: ValueSource = async () => ({ candidates: [], directive: 'files' });

/** `serve --seed`: demo, none, or a snapshot file. */
const seeds: ValueSource = async () => ({ candidates: [{ value: 'demo' }, { value: 'none' }], directive: 'files' });

/** A comma-separated list: after `members,` it offers `members,events`. */
export const commaList =
  (all: readonly string[]): ValueSource =>
  async ({ current }) => {
    const head = current.includes(',') ? current.slice(0, current.lastIndexOf(',') + 1) : '';
    const taken = new Set(head.split(',').filter(Boolean));
    const candidates: Candidate[] = all.filter((v) => !taken.has(v)).map((v) => ({ value: `${head}${v}` }));
    return { candidates, directive: 'nofiles' };
  };

/**
 * `command` is the path below `chamberctl` of the command that declares the option or
 * argument (`'members import'`; `''` for the program's global options).
 */
export interface OptionRule {
  command: string;
  flag: string;
  source: ValueSource;
}

export interface ArgumentRule {
  command: string;
  argument: string;
  source: ValueSource;
}

export const OPTION_RULES: readonly OptionRule[] = [
  { command: '', flag: '--profile', source: profiles },
  { command: 'chambers get', flag: '--include', source: commaList(CHAMBER_INCLUDES) },
  { command: 'members import', flag: '--report', source: files },
  { command: 'serve', flag: '--db', source: files },
  { command: 'serve', flag: '--client-secret-file', source: files },
  ...['sync pull', 'sync status', 'sync push', 'sync discard'].map((command) => ({ command, flag: '--db', source: files })),
  { command: 'sync pull', flag: '--from', source: profiles },
  { command: 'sync push', flag: '--to', source: profiles },
  { command: 'serve', flag: '--seed', source: seeds },
  { command: 'snapshot export', flag: '--db', source: files },
  { command: 'snapshot import', flag: '--db', source: files },
  ...['clients add', 'clients list', 'clients edit', 'clients rotate', 'clients revoke', 'audit'].map((command) => ({ command, flag: '--db', source: files })),
];

export const ARGUMENT_RULES: readonly ArgumentRule[] = [
  { command: 'profiles use', argument: 'name', source: profiles },
  { command: 'profiles remove', argument: 'name', source: profiles },
  { command: 'members import', argument: 'file', source: files },
  { command: 'snapshot export', argument: 'file', source: files },
  { command: 'snapshot import', argument: 'file', source: files },
];

export function optionSource(commandPath: string, flag: string): ValueSource | undefined {
  return OPTION_RULES.find((r) => r.command === commandPath && r.flag === flag)?.source;
}

export function argumentSource(commandPath: string, argument: string): ValueSource | undefined {
  return ARGUMENT_RULES.find((r) => r.command === commandPath && r.argument === argument)?.source;
}
