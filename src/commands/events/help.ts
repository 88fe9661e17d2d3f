// The help of events list (src/commands/shared/command-help.ts says how it is used).
import type { HelpOf } from '../shared/command-help.js';
import { INTERRUPTED, NO_CREDENTIALS, SERVER_FAILED } from '../shared/exit-statuses.js';
import { columnsHelp, PAGING_HELP } from '../shared/list-help.js';
import { NO_CHANGES_HELP } from '../shared/no-changes-help.js';

export const EVENTS_HELP: HelpOf = {
  events: {
    description: `An event belongs to one chamber; its status (upcoming, past, canceled) is judged when
it is read. Events are read-only through chamberctl.

${NO_CHANGES_HELP}`,
    examples: ['chamberctl events list ch_ms2fLiZry7iy3IuE --status upcoming'],
    seeAlso: ['chambers', 'members'],
  },

  'events list': {
    description: `One page of the chamber's events (20 unless \`--per-page\` says otherwise), in the
order they start, or with \`--all\` every event. Events are in API v2 only: on a profile
pinned to v1 this is a usage error (\`chamberctl help api-versions\`).

\`--from\` and \`--to\` take an ISO 8601 date (\`2026-03-01\`) or a date-time with \`Z\` or
an offset (\`2026-03-01T09:00:00+01:00\`), and select the events that overlap the window:
\`--from\` keeps the events that end on or after it, \`--to\` those that start on or
before it. A bare date is the whole day in UTC (\`--from D --to D\` is that day). They
are sent to the server in UTC.

${PAGING_HELP('events')}
On a terminal the table shows ID, TITLE, STATUS and WHEN (UTC), the span shortened while
it stays clear (\`2026-03-05 18:00–20:00\`, \`2026-03-05 18:00 – 03-07 12:00\`), and
LOCATION as the terminal widens; on a narrow one the span gives way to the start, then to
its day, before a title is cut. \`--wide\` shows every column uncut.

${columnsHelp('event')}`,
    examples: [
      'chamberctl events list ch_8f3k2a',
      'chamberctl events list ch_8f3k2a --status upcoming --from 2026-03-01 --to 2026-03-31',
      "chamberctl events list ch_8f3k2a --all --jq '.[] | [.starts_at, .title] | @tsv'",
    ],
    exitCodes: [
      [0, 'the page, or every page, was printed (also when the reader of a pipe stopped early)'],
      SERVER_FAILED,
      [2, 'a usage error: an option value outside its set or form (`--from 31/03/2026`), `--page` with `--all`, a profile pinned to v1, `--from` after `--to` (the server\'s 400)'],
      NO_CREDENTIALS,
      [4, 'there is no chamber CHAMBER_ID'],
      INTERRUPTED,
    ],
    seeAlso: ['chambers get', 'help output'],
  },
};
