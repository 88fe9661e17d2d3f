/** The `Examples:` block every command's --help ends with. */
export const examples = (lines: string[]) => `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;

/** `--db` of `clients` and `audit`: the database itself, as `serve` takes it. */
export const TEAM_DB_HELP = 'the database of serve: a SQLite file or postgres://… (default: $CHAMBERCTL_DB, else the one `serve` uses)';
