/** The `Examples:` block every command's --help ends with. */
export const examples = (lines: string[]) => `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;

/** `--db` of `clients` and `audit`: the database itself, as `serve` takes it. */
/**
 * The help of `--db`, one text for every command that takes it (config/paths.ts's resolveDb
 * decides the value): `what` the database is to the command, and whether :memory: is taken.
 */
export const dbHelp = (what: string, memory = false) =>
  `${what}: a SQLite file${memory ? ', :memory: for a throwaway one,' : ''} or postgres://… (default: $CHAMBERCTL_DB, else the database of serve in the user data directory)`;
export const TEAM_DB_HELP =
  'the database of serve: a SQLite file or postgres://… (default: $CHAMBERCTL_DB, else the one whose serve saved the profile, else the database of serve in the user data directory)';

