// The help of chambers list|get|create (src/commands/shared/command-help.ts says how it is used).
import { CHAMBER_TYPES } from '../../contract/values.js';
import type { HelpOf } from '../shared/command-help.js';
import { CANNOT_WRITE, INTERRUPTED, NO_CREDENTIALS, SERVER_FAILED } from '../shared/exit-statuses.js';
import { PROMPTS_HELP, SENT_ONCE_HELP } from '../shared/create-help.js';
import { columnsHelp, PAGING_HELP } from '../shared/list-help.js';
import { NO_CHANGES_HELP } from '../shared/no-changes-help.js';

export const CHAMBERS_HELP: HelpOf = {
  chambers: {
    description: `A chamber is an HQ or one of its subsidiaries, with an address and a status.

${NO_CHANGES_HELP}`,
    examples: ['chamberctl chambers list --type hq', 'chamberctl chambers get ch_ms2fLiZry7iy3IuE'],
    seeAlso: ['members', 'events', 'help output'],
  },

  'chambers list': {
    description: `One page of chambers (20 unless \`--per-page\` says otherwise), oldest first unless
\`--sort\` says otherwise, or with \`--all\` every chamber. \`--type\`, \`--status\` and
\`--sort\` need API v2: a profile on \`auto\` reads plain pages with v1 and these with v2
(\`chamberctl help api-versions\`).

${PAGING_HELP('chambers')}
On a terminal the table shows ID, NAME, TYPE and STATUS, and LOCATION, CREATED and HQ
as the terminal widens; \`--wide\` shows every column uncut.

${columnsHelp('chamber')}`,
    examples: [
      'chamberctl chambers list',
      'chamberctl chambers list --type hq --status active --sort -created_at',
      'chamberctl chambers list --page 3 --per-page 50',
      'chamberctl chambers list --all --jq \'.[] | select(.address.country == "DE") | .name\'',
      'chamberctl chambers list --all | cut -f1,2       # TSV when piped: id, name, ...',
      "chamberctl chambers list --all | awk -F'\\t' '$9 == \"DE\" {print $2}'   # names of German chambers",
      'chamberctl chambers list --json id,name          # only these fields, as gh --json',
    ],
    exitCodes: [
      [0, 'the page, or every page, was printed (also when the reader of a pipe stopped early)'],
      SERVER_FAILED,
      [2, 'a usage error: an option value outside its set or form, `--page` with `--all`, a filter or `--sort` on a profile pinned to v1, a 400 about a query parameter'],
      NO_CREDENTIALS,
      INTERRUPTED,
    ],
    seeAlso: ['chambers get', 'help output', 'help api-versions'],
  },

  'chambers get': {
    description: `The chamber's fields; with \`--include\` also its first members and events (the server
embeds at most 100 of each; \`members list\` and \`events list\` page through all). A plain
\`get\` is read with v1 on a profile on \`auto\`, \`--include\` needs v2.

On a terminal: one label and value a line, times to the minute in UTC
(\`2026-11-22 14:05 UTC\`), and the first 10 members and events as small tables with how
many more there are (\`--json\` and TSV give all of them). Piped: one \`field<TAB>value\`
line per field, with the API's field names (the address as \`street\`, \`postal_code\`,
\`city\`, \`country\`), and a line \`member<TAB>...\` or \`event<TAB>...\` for every
embedded item, its row as in the lists. With \`--include\`, \`--json FIELDS\` may also
name \`members\` and \`events\`.
`,
    examples: [
      'chamberctl chambers get ch_8f3k2a',
      'chamberctl chambers get ch_8f3k2a --include members,events',
      'chamberctl chambers get ch_8f3k2a --jq .address',
      "chamberctl chambers get ch_8f3k2a | awk -F'\\t' '$1 == \"status\" {print $2}'",
      'chamberctl chambers get ch_8f3k2a --json name,address',
    ],
    exitCodes: [
      [0, 'the chamber was printed'],
      SERVER_FAILED,
      [2, 'a usage error: `--include` other than members, events or both, `--include` on a profile pinned to v1'],
      NO_CREDENTIALS,
      [4, 'there is no chamber ID'],
      INTERRUPTED,
    ],
    seeAlso: ['chambers list', 'members list', 'events list', 'help output'],
  },

  'chambers create': {
    description: `Creates a chamber through \`POST /v2/chambers\` and prints it as \`get\` does. A
\`subsidiary\` names its HQ with \`--hq-id\`; a chamber's type is one of
${CHAMBER_TYPES.map((t) => `\`${t}\``).join(', ')}, and \`--country\` an ISO 3166-1 alpha-2 code
(\`de\` is taken as \`DE\`).

${PROMPTS_HELP(
  "a subsidiary's HQ picked from the HQs by name",
  `$ chamberctl chambers create --type subsidiary --country XX < /dev/null
error: required options '--name <name>', '--street <street>' and '--city <city>' not specified
  also:
    address.country (--country): must be an ISO 3166-1 alpha-2 country code, e.g. DE`,
)}
Before anything is sent the chamber is checked with the server's rules: one that
breaks one (an unknown country code, a subsidiary without \`--hq-id\`) is refused with
one line per field, exit 5, and nothing is sent.

${SENT_ONCE_HELP}`,
    examples: [
      'chamberctl chambers create --name "Berlin Chamber" --type hq --street "Unter den Linden 1" --city Berlin --postal-code 10117 --country DE',
      'chamberctl chambers create --name "Potsdam Office" --type subsidiary --hq-id ch_8f3k2a --street "Am Kanal 2" --city Potsdam --country DE',
      'chamberctl chambers create                      # on a terminal: asks for each required option',
      'id=$(chamberctl chambers create --name Bonn --type hq --street "Markt 1" --city Bonn --country DE --jq .id)',
    ],
    exitCodes: [
      [0, 'the chamber was created and printed'],
      SERVER_FAILED,
      [2, 'a usage error: required options missing without a terminal (or with `config set prompt disabled`), a value outside its set, a profile pinned to v1'],
      CANNOT_WRITE,
      [5, 'the chamber was refused: by the checks before sending (nothing was sent) or by the server (422, 409, a 400 naming fields; an `--hq-id` that names no HQ)'],
      INTERRUPTED,
    ],
    seeAlso: ['chambers get', 'config set', 'help api-versions'],
  },
};
