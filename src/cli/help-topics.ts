// `chamberctl help TOPIC`: what is not one command's, as `gh help environment` and
// `gh help exit-codes` do. Plain text, so that `--help` stays free of any work.
import type { Command } from 'commander';

export const HELP_TOPICS: Record<string, { summary: string; text: string }> = {
  'exit-codes': {
    summary: 'what the exit status of every command means',
    text: `Exit status of chamberctl (every command; scripts may rely on it):

  0    success (also when the reader of a pipe stops early: ... | head)
  1    other failure: server unreachable, a server error (5xx), an unexpected answer,
       an import with invalid, duplicate or failed rows
  2    usage error: unknown command or option, a missing required option, a value
       outside its set or form (--type bogus, --page abc, a date that is not ISO 8601),
       --page with --all, a v2-only feature on a profile pinned to v1, a 400 about a
       query parameter, a --db URL of another scheme than postgres://, clients revoke
       without --yes off a terminal
  3    authentication failed or no credentials: no profile yet (chamberctl login), a
       refused client secret (a saved one was revoked or rotated: ask the directory's
       operator for a new one), a client without the scope the call needs (a write on
       a read-only profile, refused before any prompt; the server's 401 or 403)
  4    not found (404): chambers get ch_nope, members list ch_nope; an unknown
       client (clients rotate nobody, clients edit nobody); a --db file that does
       not exist
  5    input data rejected: by the server (422, 409, a 400 naming fields of the body)
       or by the same rules before anything is sent (a bad e-mail, an unknown country);
       clients add of an id that exists, clients rotate or edit of a revoked client
  130  interrupted by Ctrl-C, at a prompt as anywhere else (143 after SIGTERM)

chamberctl api exits with the code of the answer's status: 4 for a 404, 5 for a 422
or 409, 3 for a 401 that a new token did not cure, 1 for a 5xx.
`,
  },
  environment: {
    summary: 'the environment variables chamberctl reads',
    text: `Environment variables:

  CHAMBERCTL_PROFILE        the profile to use, unless --profile is given
  CHAMBERCTL_CONFIG_DIR     directory of config.json (profiles, secrets, cached tokens)
                            instead of the platform's config directory
  CHAMBERCTL_DATA_DIR       directory of serve's default database
  CHAMBERCTL_DB             the database of every command with --db, unless --db
                            is given (a SQLite file or a postgres:// URL)
  CHAMBERCTL_CLIENT_ID      client id for chamberctl login
  CHAMBERCTL_CLIENT_SECRET  client secret for chamberctl login, and of serve --client-id
  PGPASSWORD, PGPASSFILE    the PostgreSQL password when the URL has none, as libpq
                            reads them (PGPASSFILE: default ~/.pgpass, mode 0600)
  CHAMBERCTL_CACHE_DIR      directory of the start-up code cache
  CHAMBERCTL_NO_CODE_CACHE  1: run without the code cache
  NO_COLOR                  any non-empty value turns colour off (as --no-color)
  TERM=dumb                 no colour
  COLUMNS                   the width tables fit when the terminal does not say
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY (and lower-case)
                            proxies for the commands that talk to a server, as curl
                            reads them

Global options, before or after the command: --profile NAME, --json,
--api-version auto|v1|v2, --base-url URL, --no-color, --verbose.
`,
  },
};

/** The lines of `chamberctl --help` that name the topics. */
export function topicsHelp(): string {
  const width = Math.max(...Object.keys(HELP_TOPICS).map((n) => n.length)) + 2;
  const lines = Object.entries(HELP_TOPICS).map(([name, t]) => `  $ chamberctl help ${name.padEnd(width)}# ${t.summary}`);
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
  if (words.length === 1 && HELP_TOPICS[words[0]!]) return { topic: words[0]! };
  if (words.length === 1 && words[0] === 'help') return undefined;
  let cmd = program;
  for (const word of words) {
    const sub = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!sub || (sub as Command & { _hidden?: boolean })._hidden) {
      const where = cmd === program ? '' : ` ${pathOf(cmd)}`;
      const names = cmd.commands.filter((c) => !(c as Command & { _hidden?: boolean })._hidden).map((c) => c.name());
      const topics = cmd === program ? `; topics: ${Object.keys(HELP_TOPICS).join(', ')}` : '';
      return { unknown: `no help for "${words.join(' ')}": "${word}" is not a command of chamberctl${where}${topics}; commands: ${names.join(', ')}` };
    }
    cmd = sub;
  }
  // `help chambers list` is `chambers list --help` (commander's own goes one level only)
  return { argv: [...argv.slice(0, i), ...words, '--help'] };
}

function pathOf(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}
