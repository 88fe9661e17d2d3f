import type { Chamber, Member } from '../contract/index.js';
import { eventView, memberView, type ResourceView } from './columns.js';
import { formatTime, oneLine, orNone, tsvRow } from './format.js';
import { jsonText, terminalText } from '../core/terminal-text.js';
import type { Output } from './output.js';
import { pickFields } from './settings.js';

// One object (get, create, add), in the run's mode:
// - json: the object exactly as the server returned it;
// - table (terminal): a label/value view, then included members/events as small tables;
// - tsv (pipe): `field<TAB>value` lines with the API's field names, and one
//   `member<TAB>…` / `event<TAB>…` line per included item (the list's TSV row).

/** A field of the record: `key` names it in TSV; only fields with a `label` are shown on a terminal. */
interface Field<T> {
  label?: string;
  key: string;
  table: (item: T) => string;
  tsv: (item: T) => string | null;
  status?: boolean;
}

const chamberFields: Field<Chamber>[] = [
  { label: 'ID', key: 'id', table: (c) => c.id, tsv: (c) => c.id },
  { label: 'Name', key: 'name', table: (c) => c.name, tsv: (c) => c.name },
  { label: 'Type', key: 'type', table: (c) => c.type, tsv: (c) => c.type },
  { label: 'Status', key: 'status', table: (c) => c.status, tsv: (c) => c.status, status: true },
  { label: 'HQ', key: 'hq_id', table: (c) => orNone(c.hq_id), tsv: (c) => c.hq_id },
  { label: 'Address', key: 'street', table: (c) => formatAddress(c), tsv: (c) => c.address?.street ?? null },
  // the terminal shows these within Address
  { key: 'postal_code', table: () => '', tsv: (c) => c.address?.postal_code ?? null },
  { key: 'city', table: () => '', tsv: (c) => c.address?.city ?? null },
  { key: 'country', table: () => '', tsv: (c) => c.address?.country ?? null },
  { label: 'Created', key: 'created_at', table: (c) => `${formatTime(c.created_at)} UTC`, tsv: (c) => c.created_at },
];

const memberFields: Field<Member>[] = [
  { label: 'ID', key: 'id', table: (m) => m.id, tsv: (m) => m.id },
  { label: 'Chamber', key: 'chamber_id', table: (m) => m.chamber_id, tsv: (m) => m.chamber_id },
  { label: 'Name', key: 'name', table: (m) => m.name, tsv: (m) => m.name },
  { label: 'E-mail', key: 'email', table: (m) => m.email, tsv: (m) => m.email },
  { label: 'Phone', key: 'phone', table: (m) => orNone(m.phone), tsv: (m) => m.phone },
  { label: 'Membership', key: 'membership_type', table: (m) => m.membership_type, tsv: (m) => m.membership_type },
  { label: 'Status', key: 'status', table: (m) => m.status, tsv: (m) => m.status, status: true },
  { label: 'Joined', key: 'joined_at', table: (m) => `${formatTime(m.joined_at)} UTC`, tsv: (m) => m.joined_at },
];

/** `Street 1, 10115 Berlin, DE` */
export function formatAddress(c: Chamber): string {
  const a = c.address;
  if (!a) return '';
  return [a.street, [a.postal_code, a.city].filter(Boolean).join(' '), a.country].filter(Boolean).join(', ');
}

/** A relation embedded by `--include` (members, events). */
interface Included {
  /** `member<TAB>…` lines */
  tsv(): string;
  /** `Members (3)` and a small table */
  table(output: Output): Promise<string>;
}

/** The terminal view shows the first few included items; --json and TSV carry them all. */
export const INCLUDED_ROWS = 10;

function included<T>(prefix: string, view: ResourceView<T>, items: readonly T[] | undefined, chamberId: string): Included[] {
  if (items === undefined) return [];
  return [
    {
      tsv: () => items.map((it) => tsvRow([prefix, ...view.tsv(it)])).join(''),
      async table(output) {
        const plural = view.noun[1];
        const title = `${plural[0]!.toUpperCase()}${plural.slice(1)}`;
        let text = `\n${output.out.bold(title)} (${items.length})\n`;
        const shown = items.slice(0, INCLUDED_ROWS);
        if (shown.length > 0) {
          const { planTable, renderTable } = await import('./table.js');
          text += await renderTable(planTable(view.columns, shown, output.settings.width), shown, output.out, true);
        }
        if (items.length > shown.length) {
          const more = `… ${items.length - shown.length} more of the ${items.length} embedded; every one: chamberctl ${prefix}s list ${chamberId} --all`;
          text += `${output.out.dim(more)}\n`;
        }
        return text;
      },
    },
  ];
}

export async function printChamber(chamber: Chamber, output: Output): Promise<void> {
  await printRecord(chamber, chamberFields, output, [
    ...included('member', memberView, chamber.members, chamber.id),
    ...included('event', eventView, chamber.events, chamber.id),
  ]);
}

export async function printMember(member: Member, output: Output): Promise<void> {
  await printRecord(member, memberFields, output, []);
}

async function printRecord<T>(
  item: T,
  fields: Field<T>[],
  output: Output,
  relations: Included[],
): Promise<void> {
  const { mode } = output.settings;
  if (mode === 'json') {
    const it = pickFields(item, output.settings.fields);
    await output.stdout.write(`${output.settings.prettyJson ? output.out.json(jsonText(JSON.stringify(it, null, 2))) : jsonText(JSON.stringify(it))}\n`);
    return;
  }
  if (mode === 'tsv') {
    let text = fields.map((f) => tsvRow([f.key, f.tsv(item)])).join('');
    for (const r of relations) text += r.tsv();
    // exact in a pipe or file; on a terminal, control characters inert (core/terminal-text.ts)
    await output.stdout.write(output.settings.stdoutIsTTY ? terminalText(text) : text);
    return;
  }
  const shown = fields.flatMap((f) => (f.label ? [{ ...f, label: f.label }] : []));
  const labelWidth = Math.max(...shown.map((f) => f.label.length));
  const style = output.out;
  let text = '';
  for (const f of shown) {
    const value = oneLine(f.table(item));
    // padding outside the bold, so no styled blanks
    text += `${style.bold(f.label)}${' '.repeat(labelWidth - f.label.length)}  ${f.status ? style.status(value) : value}\n`;
  }
  for (const r of relations) text += await r.table(output);
  await output.stdout.write(text);
}
