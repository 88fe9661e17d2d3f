// The settings of `chamberctl config`, as plain data: `config --help` lists them without
// loading the config code, and `config get|set|list` checks keys against the same list.

export interface ConfigKey {
  key: string;
  /** The values `config set` takes; undefined for a free value (base-url). */
  values?: readonly string[];
  /** false: shown only, set by `chamberctl login`/`logout`. */
  settable: boolean;
  help: string;
}

export const API_VERSION_VALUES = ['auto', 'v1', 'v2'] as const;
export const OUTPUT_VALUES = ['auto', 'table', 'tsv', 'json', 'csv'] as const;
export const PROMPT_VALUES = ['enabled', 'disabled'] as const;

export const CONFIG_KEYS: readonly ConfigKey[] = [
  { key: 'base-url', settable: true, help: "the server's URL (a new one drops the old server's tokens; another origin, its secret too)" },
  { key: 'api-version', values: API_VERSION_VALUES, settable: true, help: 'auto: v1 for plain reads, v2 for the rest' },
  { key: 'output', values: OUTPUT_VALUES, settable: true, help: 'lists without --format/--json' },
  { key: 'prompt', values: PROMPT_VALUES, settable: true, help: 'disabled: never ask for a missing option' },
  { key: 'client-id', settable: false, help: 'shown only; set by chamberctl login' },
  { key: 'logged-in', settable: false, help: 'shown only; true after login, false after logout' },
];

/**
 * The `Settings:` block of the help of `config` and `config set` (a block indented 4 spaces,
 * as manual text has it: src/commands/shared/command-help.ts).
 */
export function configKeysHelp(onlySettable: boolean): string {
  const keys = CONFIG_KEYS.filter((k) => k.settable || !onlySettable);
  const width = Math.max(...keys.map((k) => k.key.length)) + 2;
  const lines = keys.map((k) => `    ${k.key.padEnd(width)}${k.values ? `${k.values.join('|')}  ` : ''}${k.help}`);
  return `Settings${onlySettable ? ' that config set changes' : ''}:\n\n${lines.join('\n')}\n`;
}
