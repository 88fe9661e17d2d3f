// What the help of chambers list, members list and events list says alike: paging, and
// the columns of their TSV and CSV, read off the views that print them (output/columns.ts).
import type { Chamber, Event, Member } from '../../contract/index.js';
import { chamberView, eventView, memberView, type ResourceView } from '../../output/columns.js';

/** Paging and --all, as every list takes them; `noun`: what the list holds. */
export const PAGING_HELP = (noun: string) => `- \`--per-page\` is 20 by default; above 100 the server takes 100. \`--page\` and
  \`--all\` cannot be combined.
- \`--all\` walks every page from the first, 100 items a request unless \`--per-page\`
  says otherwise, and writes each page as it arrives, so memory stays flat however
  long the list. It stops at an empty page or once \`current_page × per_page\` reaches
  \`total\`, and quietly when the reader goes away (\`... --all | head\`).
- While stderr is a terminal, a line there under a page says where you are:
  \`page 1 of 12 (234 ${noun}) — use --page 2 or --all\`.
- Option values are checked before anything is sent, by the server's rules: a value
  outside its set or form (\`--page abc\`, \`--status bogus\`) is a usage error (exit 2).
`;

/** A record whose every field holds its own name, so that a view's TSV row names its columns. */
const NAMED = {
  chamber: { id: 'id', name: 'name', type: 'type', status: 'status', hq_id: 'hq_id', address: { street: 'street', postal_code: 'postal_code', city: 'city', country: 'country' }, created_at: 'created_at' },
  member: { id: 'id', chamber_id: 'chamber_id', name: 'name', email: 'email', phone: 'phone', membership_type: 'membership_type', status: 'status', joined_at: 'joined_at' },
  event: { id: 'id', chamber_id: 'chamber_id', title: 'title', status: 'status', starts_at: 'starts_at', ends_at: 'ends_at', location: 'location' },
};

const VIEWS = {
  chamber: [chamberView, NAMED.chamber],
  member: [memberView, NAMED.member],
  event: [eventView, NAMED.event],
} as unknown as Record<keyof typeof NAMED, [ResourceView<Chamber | Member | Event>, Chamber | Member | Event]>;

/** The TSV columns of a list, in their order (stable: new ones only ever come last). */
export const tsvColumns = (kind: keyof typeof NAMED): string[] => VIEWS[kind][0].tsv(VIEWS[kind][1]).map(String);

/** The CSV columns of a list (`--format csv`), in their order. */
export const csvColumns = (kind: keyof typeof NAMED): string[] => [...VIEWS[kind][0].csv.header];

/** The paragraph of a list's help that names its TSV and CSV columns. */
export function columnsHelp(kind: keyof typeof NAMED): string {
  const names = (columns: string[]) => columns.map((c) => `\`${c}\``).join(', ');
  return (
    `Piped, each item is one line of tab-separated values without a header, in this order (new columns only ever come last): ${names(tsvColumns(kind))}. ` +
    `With \`--format csv\`: a header row, then ${names(csvColumns(kind))}.\n`
  );
}
