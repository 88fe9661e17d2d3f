// The help of members list|get|add|import (src/commands/shared/command-help.ts says how it is used).
import { MEMBERSHIP_TYPES } from '../../contract/values.js';
import type { HelpOf } from '../shared/command-help.js';
import { PROMPTS_HELP, SENT_ONCE_HELP } from '../shared/create-help.js';
import { CANNOT_WRITE, INTERRUPTED, NO_CREDENTIALS, SERVER_FAILED } from '../shared/exit-statuses.js';
import { columnsHelp, PAGING_HELP } from '../shared/list-help.js';
import { NO_CHANGES_HELP } from '../shared/no-changes-help.js';

export const MEMBERS_HELP: HelpOf = {
  members: {
    description: `A member belongs to one chamber, and its e-mail address is unique within it.

${NO_CHANGES_HELP}`,
    examples: ['chamberctl members list ch_ms2fLiZry7iy3IuE --status active', 'chamberctl members import ch_ms2fLiZry7iy3IuE members.csv'],
    seeAlso: ['chambers', 'help csv-format'],
  },

  'members list': {
    description: `One page of the chamber's members (20 unless \`--per-page\` says otherwise), oldest
first unless \`--sort\` says otherwise, or with \`--all\` every member. \`--status\` and
\`--sort\` need API v2: a profile on \`auto\` reads plain pages with v1
(\`chamberctl help api-versions\`).

${PAGING_HELP('members')}
On a terminal the table shows ID, NAME, EMAIL and STATUS, and MEMBERSHIP, JOINED and
PHONE as the terminal widens; \`--wide\` shows every column uncut.

${columnsHelp('member')}
The CSV starts with the columns \`members import\` reads, so an export imports back
unchanged into another chamber (the import ignores the other columns, and says so).
`,
    examples: [
      'chamberctl members list ch_8f3k2a',
      'chamberctl members list ch_8f3k2a --status pending --sort -joined_at',
      "chamberctl members list ch_8f3k2a --all --jq '.[] | [.name, .email] | @csv'",
      'chamberctl members list ch_8f3k2a --all --json=name,email',
      'chamberctl members list ch_8f3k2a --all --format csv > members.csv   # imports back: members import ch_9x7y6z members.csv',
    ],
    exitCodes: [
      [0, 'the page, or every page, was printed (also when the reader of a pipe stopped early)'],
      SERVER_FAILED,
      [2, 'a usage error: an option value outside its set or form, `--page` with `--all`, `--status` or `--sort` on a profile pinned to v1'],
      NO_CREDENTIALS,
      [4, 'there is no chamber CHAMBER_ID'],
      INTERRUPTED,
    ],
    seeAlso: ['members get', 'members import', 'help output'],
  },

  'members get': {
    description: `Reads \`GET /v2/chambers/{id}/members/{member_id}\`, a route that \`chamberctl serve\`
has and the interface document does not (it lets the \`Location\` of a new member be
followed): another server may answer 404 (exit 4) or 405 (exit 1). Printed as
\`chambers get\` prints a chamber: label and value on a terminal, \`field<TAB>value\`
lines piped, the object with \`--json\`.
`,
    examples: ['chamberctl members get ch_8f3k2a mb_3kd9s0', 'chamberctl members get ch_8f3k2a mb_3kd9s0 --jq .email'],
    exitCodes: [
      [0, 'the member was printed'],
      [1, 'the server lacks the route (405), cannot be reached, fails or answers something unexpected'],
      [2, 'a usage error: a profile pinned to v1'],
      NO_CREDENTIALS,
      [4, 'there is no such chamber or member there (or the server lacks the route and says 404)'],
      INTERRUPTED,
    ],
    seeAlso: ['members list', 'chambers get'],
  },

  'members add': {
    description: `Adds a member through \`POST /v2/chambers/{id}/members\` and prints it as \`get\` does.
Its membership type is one of ${MEMBERSHIP_TYPES.map((t) => `\`${t}\``).join(', ')}; its e-mail address must
not be a member's of the chamber yet (the server answers 409: exit 5).

${PROMPTS_HELP('the membership type from a list')}
Before anything is sent the member is checked with the server's rules: a bad e-mail
address or phone number is refused with one line per field, exit 5, and nothing is
sent:

    $ chamberctl members add ch_8f3k2a --name Ada --email ada-at-example --membership-type standard
    error: the member is not valid; nothing was sent
      email (--email): must be a valid e-mail address

${SENT_ONCE_HELP}`,
    examples: [
      'chamberctl members add ch_8f3k2a --name "Ada Lovelace" --email ada@example.org --membership-type premium',
      'chamberctl members add ch_8f3k2a --name "Bob" --email bob@example.org --phone "+49 30 1234567" --membership-type standard --json',
      'chamberctl members add ch_8f3k2a                # on a terminal: asks for each required option',
    ],
    exitCodes: [
      [0, 'the member was added and printed'],
      SERVER_FAILED,
      [2, 'a usage error: required options missing without a terminal (or with `config set prompt disabled`), a value outside its set, a profile pinned to v1'],
      CANNOT_WRITE,
      [4, 'there is no chamber CHAMBER_ID'],
      [5, 'the member was refused: by the checks before sending (nothing was sent) or by the server (422; 409: the e-mail address is a member\'s already; a 400 naming fields)'],
      INTERRUPTED,
    ],
    seeAlso: ['members import', 'config set'],
  },

  'members import': {
    description: `Every valid row becomes a member of the chamber, through
\`POST /v2/chambers/{id}/members\`: an import always uses API v2, and on a profile pinned to
v1 it is a usage error that says how to unpin it. The file (or stdin, \`-\`) is streamed:
a million rows are never held in memory, and the file is read only as fast as rows are
sent. What the CSV holds, and which rows are refused before anything is sent (invalid,
duplicates within the file, malformed lines), is \`chamberctl help csv-format\`; the
first 50 such rows are printed on stderr, \`--report\` lists every one.

The options in detail
---------------------

- \`--dry-run\` reads and checks every row (duplicates within the file too) and sends
  nothing. The chamber is still looked up (one GET), so a typo in its id shows now, and
  a dry run needs the same login as a real one; the report is written as usual.
- \`--concurrency N\`: requests in flight at once, 1 to 64 (default 8).
- \`--report PATH\` writes the rows that need attention (below).
- \`--delimiter CHAR\`: \`,\` (default), \`;\` for files from a German or French Excel,
  \`|\`, \`tab\` (or \`\\t\`); any other single character but a quote or a line break.
  The report uses the same one.
- \`--json\` prints the summary as one JSON object on stdout, and nothing else there.
- \`--verbose\` prints the HTTP exchanges on stderr, one line per retry, and a plain
  progress line every 5 seconds (it reads well in a CI log).

Progress and the summary
------------------------

On a terminal, stderr shows one status line while the import runs: rows done, rows per
second, how much of the file has been read (none for stdin), and the counts so far.
Without a terminal and without \`--verbose\`, stderr carries only warnings (the ignored
columns, once) and problem rows. At the end the summary goes to stdout: a table on a
terminal, \`key<TAB>value\` lines piped, one JSON object with \`--json\`:

    {"chamber_id":"ch_8f3k2a","file":"members.csv","dry_run":false,"interrupted":false,
     "rows":1000,"created":990,"skipped":5,"invalid":3,"duplicate":1,"failed":1,"valid":0,
     "last_line":1001,"elapsed_seconds":0.84,"rows_per_second":1190.5,
     "report":"problems.csv","ignored_columns":["notes"]}

Each data row lands in exactly one of \`created\`, \`skipped\` (already a member: the
server answered 409), \`invalid\` (refused by the checks, by the server with 422, or
malformed), \`duplicate\`, \`failed\` (still failing after the retries) and, in a dry run
only, \`valid\` (would be sent). \`rows\` is their sum; \`last_line\` is the line of the
last row read.

The report: fix and feed straight back in
-----------------------------------------

\`--report problems.csv\` writes every row that was not created and needs attention:
\`invalid\`, \`duplicate\` and \`failed\` rows (a row skipped because the member exists
needs nothing). It has the input's own columns, as they were named and with the values
as they were read, then \`line\` (the row's line in the input), \`status\` (\`invalid\`,
\`duplicate\` or \`failed\`) and \`reason\` (every problem of the row, e.g.
\`email: must be a valid e-mail address\`). Fix the rows, delete the ones you do not
want, and import the report itself: \`line\`, \`status\` and \`reason\` are ignored on
import without a warning. A malformed line cannot be split into columns: its columns are
empty and \`reason\` quotes the line. Failed rows need no fixing: importing the report
retries them.

The report is written as rows come, with the input's delimiter, starts with a UTF-8
byte-order mark (so Excel opens it as UTF-8; the import skips it) and is created with mode
0600, since it holds personal data. It always has its header row, even when no row needed
attention, and it cannot be the input file.

Running it again: resuming, retries and failures
------------------------------------------------

An import can be run again. The server answers 409 for an e-mail address already in the
chamber, and the row counts as \`skipped\`. Each row's POST also carries an
\`Idempotency-Key\` made of the chamber and the row (\`import-\` and a SHA-256 of both), so
a server that honours it, as \`chamberctl serve\` does, answers a repeat with its first
answer: that row is \`skipped\` too. So:

- Running the same file twice creates nothing the second time (every row is skipped,
  exit 0).
- An interrupted import is finished by running the same command again, whatever
  stopped it (Ctrl-C, a killed process, a dropped connection, a server that went away):
  rows already created are skipped, nothing is lost or doubled. Run the original file
  again, not the report: the report holds only the rows read before the interruption.
- Ctrl-C stops reading, lets the requests in flight finish, prints the summary
  (\`"interrupted": true\`), writes the report, and exits 130 with
  \`interrupted after line N: run the same command again to finish\`. A second Ctrl-C
  quits at once.

A row is tried up to 8 times after a network error (a connection that drops after the
request was sent included), a 429 or a 5xx, with exponential backoff and full jitter
(250 ms doubling up to 10 s); a \`Retry-After\` of up to a minute is obeyed. Repeating a
POST is safe because of the 409: when a connection dropped after the server created the
member, the repeat is answered 409 and the row counts as skipped although this run
created it. A row that still fails is \`failed\` and the import goes on; after 16 rows
in a row have failed (or twice \`--concurrency\`, if more) it stops, the server being
evidently down, with exit 1 and the advice to run it again later. A 401 gets one new
token and the same request; a second 401, a 403 or a 404 (the chamber is gone) stop the
import with exit 3 or 4. One access token serves the whole import: the cached one while
it is fresh, else one new token, asked for once however many requests start together.
`,
    examples: [
      'chamberctl members import ch_8f3k2a members.csv',
      'chamberctl members import ch_8f3k2a members.csv --dry-run --report problems.csv',
      "chamberctl members import ch_8f3k2a export.csv --delimiter ';' --concurrency 16 --report problems.csv",
      'chamberctl members import ch_8f3k2a problems.csv          # the fixed report, fed straight back in',
      'gunzip -c members.csv.gz | chamberctl members import ch_8f3k2a - --json',
    ],
    exitCodes: [
      [0, 'every row was created or skipped (in a dry run: valid)'],
      [1, 'a row was invalid, a duplicate or failed; 16 rows in a row failed (the import stopped); the server cannot be reached or the report cannot be written'],
      [2, 'a usage error: a bad option, a file that cannot be read, a profile pinned to v1'],
      [3, 'no profile or no credentials, the server refused them, or the profile\'s client holds only the read scope (a dry run only reads)'],
      [4, 'there is no chamber CHAMBER_ID (or it went away during the import)'],
      [5, 'the header row is missing, malformed, lacks a required column or names one twice; the file is UTF-16'],
      [130, 'interrupted by Ctrl-C: run the same command again to finish'],
      [143, 'stopped by SIGTERM, likewise'],
    ],
    seeAlso: ['help csv-format', 'members list', 'members add'],
  },
};
