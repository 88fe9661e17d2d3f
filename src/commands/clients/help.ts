// The help of clients add|list|edit|rotate|revoke (src/commands/shared/command-help.ts says how it is used).
import type { ExitStatus, HelpOf } from '../shared/command-help.js';
import { TEAM_DB_TEXT } from '../shared/team-help.js';

/** What every clients command exits with when it cannot get at the database. */
const DATABASE: ExitStatus = [1, 'the database cannot be opened'];
const UNKNOWN: ExitStatus = [4, 'there is no client CLIENT_ID; the `--db` file does not exist (nothing is created)'];

export const CLIENTS_HELP: HelpOf = {
  clients: {
    description: `Give every person and every app its own API client, with only the scope it needs, and
see who wrote what (\`chamberctl audit\`). Whoever can open the database administers its
clients: there is no HTTP endpoint for them. Run these while the instances serve: no
restart is needed, and every change reaches every instance within 1 s.

- Scopes: \`read\` may call every GET; \`write\` also the v2 POSTs (\`chambers create\`,
  \`members add\`, \`members import\`) and includes reading. A token carries its client's
  scope: a POST with a \`read\` token is refused (403 \`insufficient_scope\`; chamberctl
  exits 3), and the write commands (\`chambers create\`, \`members add\`, \`members
  import\`, \`sync push\` with changes pending) look at the scope of the profile's token
  before they ask or send anything, so nobody answers the questions only to be refused.
  The scope is the one the server gave the token (\`chamberctl auth status\` shows it);
  a cached token that says \`read\` is asked for again first, since the operator may have
  granted \`write\` since. \`members import --dry-run\` and \`sync push --dry-run\` only
  read. \`chamberctl api -X POST\` sends what it is given, and a server whose tokens name
  no scope is left to answer the POST itself.
- Ids are 1 to 64 characters of \`A-Z a-z 0-9 . _ - @\`, and never reused: an id that
  exists, revoked or not, cannot be added again.
- Secrets: \`add\` and \`rotate\` make a secret of 40 random letters and digits and print
  it once, on stdout (\`client_secret\`; on a terminal a reminder to save it goes to
  stderr, with the exact \`chamberctl login --base-url URL --client-id ID
  --client-secret-stdin\` line to hand over with it, the URL that of the \`serve\` that
  saved the profile). The database keeps only its scrypt hash, so nobody can show it again: a lost
  secret is a \`rotate\`. Hand it over on stdin, out of \`ps\` and the shell's history:
  \`chamberctl login --client-id alice --client-secret-stdin\`.
- Whoever used a revoked client, or a rotated secret after its grace, is told at their
  next command that the client may have been revoked or its secret rotated, and to ask
  for a new secret.
- Every change is recorded in the audit trail with who made it (\`user@host\`); a repeat
  that changes nothing records nothing.
- Snapshots carry neither clients nor audit records, and \`snapshot import --replace\`
  keeps both.

On a terminal \`clients list\` prints a table and \`clients revoke\` asks first; piped, TSV
(a column per field, empty for null; new columns only ever come last); \`--json\` the
objects each command names, times in UTC ISO 8601. \`--json FIELDS\` keeps those fields (for
\`add\` and \`rotate\`, \`client_secret\` must be among them: it is shown this once only).
Everything is checked before the database is opened: a refused command has changed
nothing.

${TEAM_DB_TEXT}`,
    examples: [
      "chamberctl clients add alice --scope write --db \"$DB\"   # prints alice's secret once",
      'chamberctl clients add reports --scope read --db "$DB"',
      'chamberctl clients list --db "$DB"',
      'chamberctl clients edit reports --scope write --db "$DB"',
      'chamberctl clients rotate alice --grace 15m --db "$DB"',
      'chamberctl clients revoke reports --db "$DB"             # asks first; --yes in a script',
    ],
    seeAlso: ['audit', 'serve', 'login'],
  },

  'clients add': {
    description: `Prints \`client_id\`, the new \`client_secret\` (once: only its hash is kept),
\`scope\` and \`created_at\` (\`--json\`: \`{"client_id", "client_secret", "scope",
"created_at"}\`). Without \`--scope\` the client may write, as one that \`serve
--client-id\` registers.

${TEAM_DB_TEXT}`,
    examples: [
      'chamberctl clients add alice --db ~/dir.db                  # a write client',
      'chamberctl clients add reports --scope read --db "$DB"',
      'secret=$(chamberctl clients add ci --db "$DB" --jq .client_secret)',
    ],
    exitCodes: [
      [0, 'the client was added and its secret printed'],
      DATABASE,
      [2, 'a usage error: a bad CLIENT_ID or `--scope`, `--db :memory:`'],
      [4, 'the `--db` file does not exist (nothing is created)'],
      [5, 'the id exists (revoked clients included): ids are never reused'],
    ],
    seeAlso: ['clients rotate', 'login'],
  },

  'clients list': {
    description: `Every client, revoked ones included, oldest first; never a secret or a hash.
\`LAST USED\` is when the client last got a token or made a request, kept to the minute
(\`never\` before that); \`OLD SECRET UNTIL\` is the end of a rotation's grace while it
runs (the column a narrow terminal drops first). \`--json\`: an array of
\`{"client_id", "scope", "created_at", "last_used_at", "revoked_at",
"old_secret_valid_until"}\`, null where never; the TSV has the same columns in that order.

${TEAM_DB_TEXT}`,
    examples: ['chamberctl clients list --db ~/dir.db', "chamberctl clients list --db \"$DB\" --jq '.[] | select(.revoked_at == null) | .client_id'"],
    exitCodes: [
      [0, 'the clients were listed'],
      DATABASE,
      [2, 'a usage error: `--db :memory:`'],
      [4, 'the `--db` file does not exist (nothing is created)'],
    ],
    seeAlso: ['clients add', 'audit'],
  },

  'clients edit': {
    description: `Changes the scope for good, on every instance within 1 s: a token can do no more than
the lesser of the scope it was issued with and its client's scope now, and an instance
looks a token up again at most 500 ms after it last did. So \`read\` takes the writes
from the tokens in use at once, and \`write\` lets the tokens issued from then on write
(a token issued as \`read\` stays \`read\` until it expires, within the hour; a \`write\`
token issued before a \`read\` spell writes again). It prints
\`{"client_id", "scope"}\`. The scope the client has already changes nothing and records
nothing (exit 0; on a terminal it says so).

${TEAM_DB_TEXT}`,
    examples: [
      'chamberctl clients edit reports --scope read --db "$DB"   # its tokens stop writing within 1 s',
      'chamberctl clients edit ci --scope write --db "$DB"       # new tokens can write',
    ],
    exitCodes: [
      [0, 'the client has that scope now (also when it had it already)'],
      DATABASE,
      [2, 'a usage error: a bad CLIENT_ID, `--scope` missing or bad, `--db :memory:`'],
      UNKNOWN,
      [5, 'the client is revoked'],
    ],
    seeAlso: ['clients list', 'audit'],
  },

  'clients rotate': {
    description: `Prints a new secret. The old one keeps working until the grace ends
(\`old_secret_valid_until\`), then never again, and the tokens issued with it end then
too. DURATION is \`0\` (the default: the old secret and its tokens stop at once) or a
number and \`s\`, \`m\`, \`h\` or \`d\` (\`90s\`, \`15m\`, \`2h\`, \`1d\`), at most \`30d\`.
\`--json\`: \`{"client_id", "client_secret", "old_secret_valid_until"}\` (null when the grace
is 0). \`serve --client-id\` with the old secret still starts during the grace. Without a
grace the old secret stops at once, so rotate asks first on a terminal and needs \`--yes\`
off one (\`chamberctl help destructive\`).

${TEAM_DB_TEXT}`,
    examples: [
      'chamberctl clients rotate alice --yes --db "$DB"        # the old secret stops working at once',
      'chamberctl clients rotate alice --grace 15m --db "$DB"  # ...or in 15 minutes: time to deploy the new one',
    ],
    exitCodes: [
      [0, 'the new secret was printed'],
      DATABASE,
      [2, 'a usage error: a bad CLIENT_ID or `--grace`, `--db :memory:`; no grace, no terminal and no `--yes`'],
      UNKNOWN,
      [5, 'the client is revoked (add a new client instead)'],
      [130, 'interrupted by Ctrl-C at the question'],
    ],
    seeAlso: ['clients add', 'login'],
  },

  'clients revoke': {
    description: `For good: the client's secret is refused from then on and its tokens within 1 s on every
instance (an instance trusts a token it has checked for 500 ms at most, and revoking
deletes the tokens); it can never be used, edited, rotated or added again. So it asks
first, as \`gh repo delete\` does: on a terminal (stdin and stderr)
\`Revoke client "ID"? It can never be used or added again. (y/N)\`; no, the default,
changes nothing. Without a terminal it needs \`--yes\`, which also skips the question on
one. An unknown client is refused before any question. Revoking it again changes nothing
and exits 0 with the time it was revoked. \`--json\`: \`{"client_id", "revoked_at"}\`.

${TEAM_DB_TEXT}`,
    examples: ['chamberctl clients revoke reports --db "$DB"          # asks first', 'chamberctl clients revoke reports --yes --db "$DB"    # in a script'],
    exitCodes: [
      [0, 'the client is revoked (also when it was already)'],
      [1, 'no to the question (nothing changed); the database cannot be opened'],
      [2, 'a usage error: no `--yes` without a terminal (nothing changed), a bad CLIENT_ID, `--db :memory:`'],
      UNKNOWN,
      [130, 'interrupted by Ctrl-C at the question; nothing changed'],
    ],
    seeAlso: ['clients list', 'audit'],
  },
};
