// `chamberctl help output`: how chamberctl prints what it got, and --json FIELDS.
import { csvColumns, tsvColumns } from '../../commands/shared/list-help.js';

/** The columns of each list, one item a list: `- chambers list: \`id\`, \`name\`, ...` */
const columnsOfLists = (columns: (kind: 'chamber' | 'member' | 'event') => string[]) =>
  (['chamber', 'member', 'event'] as const).map((kind) => `- ${kind}s list: ${columns(kind).map((c) => `\`${c}\``).join(', ')}`).join('\n');

export const OUTPUT_TOPIC = `chamberctl picks the output from where stdout goes:

    stdout           without --json                      with --json
    a terminal       aligned table (lists), label and    indented JSON
                     value (get, create, add)
    a pipe or file   tab-separated values, no header     compact JSON

\`--format table|tsv|json|csv\` on a list says which, whatever stdout is (\`--json\` is
\`--format json\`; asking for both with different formats is a usage error), and a
profile's \`output\` setting (\`chamberctl config set output csv\`) does for the lists of
that profile when neither is given.

Tables
------

Tables fit the terminal's width and give the room to what a person reads: names, titles,
e-mail addresses, the city. The other columns join as the terminal widens, the most
useful first (chambers: LOCATION, then CREATED, then HQ; members: MEMBERSHIP, then
JOINED, then PHONE; events: LOCATION), each only while the names keep a readable width
(36 columns for chamber names and event titles, 24 for member names, 28 for e-mail
addresses, 16 for a location, or their whole length if shorter). With the demo data,
\`chambers list\` shows ID, NAME, TYPE and STATUS at 80 columns, LOCATION from 100,
CREATED from 120 and HQ from 160. On a narrow terminal an event's span gives way to its
start, then to its day, before a title is cut; then names, e-mail addresses, titles and
places are cut in the middle (\`Antwerp Busin…Ghent Branch\`, so that subsidiaries that
share their HQ's name stay told apart). Ids and statuses are never cut. \`--wide\` shows
every column uncut (the terminal may wrap). Widths are measured as the terminal draws
them: East Asian characters, flags and joined emoji line up.

Lists show days (\`2026-11-22\`), a single record the time (\`2026-11-22 14:05 UTC\`); all
times are UTC, so every machine shows the same. An event's span is shortened while it
stays clear: \`2026-03-05 18:00–20:00\`, \`2026-03-05 18:00 – 03-07 12:00\`. A chamber's
location is \`city, country\`. Under a page a line on stderr says where you are
(\`page 1 of 12 (234 chambers) — use --page 2 or --all\`), whenever stderr is a terminal,
so that \`... --json | jq\` in a terminal also says it got one page. With \`--all\`, the
columns are laid out from the first page (a longer value on a later page is cut).
\`chambers get --include\` shows the first 10 members and events as small tables and says
how many more there are.

TSV
---

Piped, without \`--json\`: one line per item, fields separated by a tab, no header, no
colour, nothing on stderr unless there is an error; for \`cut\`, \`awk\`, \`sort\` and
\`while read\`. An absent value is an empty field. Inside a value \`\\\` is written \`\\\\\`,
a tab \`\\t\`, a newline \`\\n\` and a carriage return \`\\r\`, so a row is always one line.
Times are the API's ISO 8601 strings. The column order is stable: new columns only ever
come last.

${columnsOfLists(tsvColumns)}

\`get\`, \`create\` and \`add\` print one \`field<TAB>value\` line per field, with the API's
field names (a chamber's address as \`street\`, \`postal_code\`, \`city\`, \`country\`);
with \`--include\`, each embedded item adds a line \`member<TAB>\` or \`event<TAB>\` and its
row as in the lists.

JSON
----

\`--json\` prints exactly the API's objects on stdout and nothing else: a list prints a
JSON array of its items (with \`--all\`, one array of every item, written as the pages
arrive), \`get\`, \`create\` and \`add\` print the object. On a terminal it is indented and
highlighted unless \`--no-color\` or \`NO_COLOR\`. Errors still go to stderr, and the exit
status tells success from failure, so \`set -o pipefail\` pipelines work.

Selecting fields: --json FIELDS
-------------------------------

On the commands that print records (\`chambers list|get|create\`, \`members
list|get|add\`, \`events list\`, \`clients\`, \`audit\`), a comma list of field names right
after \`--json\` prints only those fields of each object, in that order (a field the
server left out is null), as gh does; \`--json=FIELDS\` is the same. Each command's help
lists its fields, and an unknown field is a usage error (exit 2) that lists them.

\`--json\` alone stays the flag scripts use, wherever it stands:
\`chamberctl members list --json ch_8f3k2a\` lists that chamber's members as full JSON. The
word after \`--json\` is read as fields only where it could be nothing else: when the
command line has one word more than the command takes, and that word is the one right
after \`--json\`. Any other extra word is the usage error \`too many arguments for 'list':
...; to select fields of the JSON, put them right after --json: --json id,name\`. Before
the command's name (\`chamberctl --json id,name chambers list\`) no fields are taken.

Filtering: --jq EXPR
--------------------

\`--jq EXPR\` runs a jq filter on the JSON, as gh's \`--jq\` does, so that a script needs
no jq installed: it is jq itself (1.8, built into chamberctl), not an imitation. It
implies \`--json\`, and the filter reads exactly what \`--json\` (or \`--json FIELDS\`)
would print: with \`--all\`, the one array of every item. Each result is printed on its
own line, a string as it is (no quotes) and anything else as compact JSON, which is
\`--json | jq -r -c EXPR\`:

    chamberctl chambers list --all --jq '.[] | select(.type == "hq") | .name'
    chamberctl chambers list --all --jq 'group_by(.address.country) | map({country: .[0].address.country, n: length})'
    chamberctl members list ch_8f3k2a --all --json name,email --jq '.[] | [.name, .email] | @tsv'
    chamberctl api /v2/chambers --jq .meta.total

It is taken by the record and list commands, \`api\`, \`clients\`, \`audit\`, \`auth
status\`, \`auth token\`, \`profiles list\`, \`config list|get\`, \`members import\`
(its summary) and \`sync pull|status|push|discard\`; another command calls it an unknown
option. A filter that does not compile is a usage error (exit 2) with jq's message and
where in the filter it is (line and column, and the filter with a mark under the place);
an error while it runs (\`.name.first\` on a string) exits 1 with jq's message, after
the results printed before it. With \`--format csv\`, \`tsv\` or \`table\` it is a usage
error, since \`--jq\` reads JSON (use \`@csv\` or \`@tsv\` in the filter), and so is
\`api --include\`, whose status line and headers are not JSON. jq's own debug output
(\`debug\`, \`stderr\`) goes to stderr. The filter reads the one JSON document and
nothing else: \`input\` finds no more, \`$ENV\` and \`env\` are not your environment, and
there is no \`--arg\` (put a shell variable into the filter's text instead). Piping
\`--json\` into a jq you have installed gives the same answers.

CSV out and back in
-------------------

\`--format csv\`, on every list: a header row, then RFC 4180 records (CRLF line ends,
fields quoted when they hold a comma, a quote or a line break, an absent value empty),
written page by page with \`--all\`. The members' columns start with the ones \`members
import\` reads, so an export imports back unchanged into another chamber (the import
ignores the other columns, in a warning and in its summary's \`ignored_columns\`).

${columnsOfLists(csvColumns)}

A value that begins with \`=\`, \`+\`, \`-\`, \`@\`, a tab or a carriage return, which a
spreadsheet would run as a formula (OWASP's "CSV Injection"), is written with a leading
\`'\`, which spreadsheets read as "text" and do not show; \`members import\` takes it off
again, so an export imports back as it was stored (\`chamberctl help csv-format\`,
"Formulas"). \`--raw\` writes every value exactly as stored, for programs other than
\`members import\` (it goes with \`--format csv\` only: exit 2 otherwise).

Control characters
------------------

A value from a server or a file could hold terminal commands: ESC starts a sequence (OSC
52 writes the clipboard, CSI 2J clears the screen), and so does the one-character C1
control U+009B. Whatever chamberctl shows a person is made inert first, as gh's
asciisanitizer does: tables and single records, error lines (the server's messages and
field details included), the problem rows of \`members import\` and \`sync push\`, and
\`--verbose\`'s exchanges show every C0 control but tab and newline, DEL and every C1
control in \`cat -v\`'s notation: ESC as \`^[\`, BEL \`^G\`, DEL \`^?\`, U+009B as \`M-^[\`. In
a table cell and an error line a newline shows as a space or \`^J\`, so it cannot fake a
line. \`--json\` stays exact JSON: JSON.stringify escapes C0 already, and chamberctl writes
DEL and C1 as \`\\u007f\` to \`\\u009f\`, the same value to any JSON reader, with no raw C1
on a terminal; \`chamberctl api\` on a terminal does the same, and piped passes the
server's bytes as they came. TSV and CSV carry the values exactly into a pipe or a file
(they are data for programs); written to a terminal, their values are made inert as a
table's are.

Colour, spinner
---------------

Colour appears only on a terminal, decided for stdout and stderr apart, and never with
\`--no-color\`, \`NO_COLOR\` set to anything, or \`TERM=dumb\`; \`FORCE_COLOR\` does not make a
pipe colourful. Statuses are coloured (active and upcoming green, pending yellow,
inactive and past dim, canceled red), headers bold. A request that takes longer than 250
ms shows a spinner on stderr, only when stderr is a terminal and not with \`--verbose\`;
while a slow or busy server is retried it says so:
\`Loading chambers: retrying (2/4) after 503…\` (the attempt about to be made, of at most
4, and what caused it).
`;
