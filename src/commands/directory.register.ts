import { Option, type Command } from 'commander';
import type { CliContext } from '../cli/context.js';
import type { GlobalOptions } from '../client/types.js';
import { examples } from './help-text.js';

// The allowed values are repeated here rather than imported from src/contract, which
// would load zod on every start (even for --help); test/commands/register.test.ts checks
// that they match the contract.
export const CHOICES = {
  chamberType: ['hq', 'subsidiary'],
  chamberStatus: ['active', 'inactive', 'pending'],
  memberStatus: ['active', 'inactive', 'pending'],
  eventStatus: ['upcoming', 'past', 'canceled'],
  membershipType: ['standard', 'premium', 'corporate', 'honorary'],
} as const;


/** --page, --per-page, --all and --format, the same on every list. */
function addPaging(cmd: Command): Command {
  return cmd
    .addOption(new Option('--page <n>', 'page to show (default 1)').conflicts('all'))
    .option('--per-page <n>', 'items per page (default 20, at most 100)')
    .option('--all', 'walk every page (100 per page unless --per-page) and print all items')
    .option('--wide', 'tables: every column, nothing cut (the terminal may wrap)')
    .addOption(
      new Option('--format <format>', 'table (on a terminal), tsv (piped), json (as --json) or csv (a header and RFC 4180 rows)').choices([
        'table',
        'tsv',
        'json',
        'csv',
      ]),
    );
}

/** Every action: the options of the command and of its parents, then the lazily loaded work. */
function globalsOf(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals<GlobalOptions>();
}

/** chambers list|get|create, members list|add, events list. */
export function registerDirectoryCommands(program: Command, ctx: CliContext): void {
  const chambers = program
    .command('chambers')
    .description('List, show and create chambers')
    .addHelpText('after', examples(['chamberctl chambers list --type hq', 'chamberctl chambers get ch_ms2fLiZry7iy3IuE']));

  addPaging(
    chambers
      .command('list')
      .description('List chambers, one page at a time or all of them')
      .addOption(new Option('--type <type>', 'only chambers of this type (v2)').choices(CHOICES.chamberType))
      .addOption(new Option('--status <status>', 'only chambers in this status (v2)').choices(CHOICES.chamberStatus))
      .option('--sort <field>', 'sort by name or created_at; a leading - sorts descending (v2)'),
  )
    .addHelpText(
      'after',
      examples([
        'chamberctl chambers list',
        'chamberctl chambers list --type hq --status active --sort -created_at',
        'chamberctl chambers list --all --json | jq -r \'.[] | select(.address.country == "DE") | .name\'',
        'chamberctl chambers list --all | cut -f1,2       # TSV when piped: id, name, ...',
      ]),
    )
    .action(async (opts, cmd: Command) => {
      const { runChambersList } = await import('./chambers-list.js');
      await runChambersList(opts, globalsOf(cmd), ctx);
    });

  chambers
    .command('get')
    .description('Show one chamber, optionally with its members and events')
    .argument('<id>', 'chamber id')
    .option('--include <relations>', 'embed related resources: members, events or members,events (v2)')
    .addHelpText(
      'after',
      examples([
        'chamberctl chambers get ch_8f3k2a',
        'chamberctl chambers get ch_8f3k2a --include members,events',
        'chamberctl chambers get ch_8f3k2a --json | jq .address',
      ]),
    )
    .action(async (id: string, opts, cmd: Command) => {
      const { runChambersGet } = await import('./chambers-get.js');
      await runChambersGet(id, opts, globalsOf(cmd), ctx);
    });

  chambers
    .command('create')
    .description('Create a chamber (v2)')
    // required, but checked by the command: on a terminal it asks for what is missing
    .option('--name <name>', 'chamber name (required)')
    .addOption(new Option('--type <type>', 'chamber type (required)').choices(CHOICES.chamberType))
    .option('--hq-id <id>', 'the HQ chamber of a subsidiary (required for --type subsidiary)')
    .option('--street <street>', 'street and number (required)')
    .option('--city <city>', 'city (required)')
    .option('--postal-code <code>', 'postal code')
    .option('--country <cc>', 'ISO 3166-1 alpha-2 country code, e.g. DE (required)')
    .addHelpText(
      'after',
      examples([
        'chamberctl chambers create --name "Berlin Chamber" --type hq --street "Unter den Linden 1" --city Berlin --postal-code 10117 --country DE',
        'chamberctl chambers create --name "Potsdam Office" --type subsidiary --hq-id ch_8f3k2a --street "Am Kanal 2" --city Potsdam --country DE',
        'id=$(chamberctl chambers create ... --json | jq -r .id)',
      ]),
    )
    .action(async (opts, cmd: Command) => {
      const { runChambersCreate } = await import('./chambers-create.js');
      await runChambersCreate(opts, globalsOf(cmd), ctx);
    });

  const members = program
    .command('members')
    .description('List, add and import the members of a chamber')
    .addHelpText(
      'after',
      examples(['chamberctl members list ch_ms2fLiZry7iy3IuE --status active', 'chamberctl members import ch_ms2fLiZry7iy3IuE members.csv']),
    );

  addPaging(
    members
      .command('list')
      .description("List a chamber's members")
      .argument('<chamber-id>', 'chamber id')
      .addOption(new Option('--status <status>', 'only members in this status (v2)').choices(CHOICES.memberStatus))
      .option('--sort <field>', 'sort by name or joined_at; a leading - sorts descending (v2)'),
  )
    .addHelpText(
      'after',
      examples([
        'chamberctl members list ch_8f3k2a',
        'chamberctl members list ch_8f3k2a --status pending --sort -joined_at',
        "chamberctl members list ch_8f3k2a --all --json | jq -r '.[].email'",
      ]),
    )
    .action(async (chamberId: string, opts, cmd: Command) => {
      const { runMembersList } = await import('./members-list.js');
      await runMembersList(chamberId, opts, globalsOf(cmd), ctx);
    });

  members
    .command('add')
    .description('Add a member to a chamber (v2)')
    .argument('<chamber-id>', 'chamber id')
    // required, but checked by the command: on a terminal it asks for what is missing
    .option('--name <name>', 'member name (required)')
    .option('--email <email>', 'e-mail address, unique within the chamber (required)')
    .option('--phone <phone>', 'phone number')
    .addOption(new Option('--membership-type <type>', 'membership type (required)').choices(CHOICES.membershipType))
    .addHelpText(
      'after',
      examples([
        'chamberctl members add ch_8f3k2a --name "Ada Lovelace" --email ada@example.org --membership-type premium',
        'chamberctl members add ch_8f3k2a --name "Bob" --email bob@example.org --phone "+49 30 1234567" --membership-type standard --json',
      ]),
    )
    .action(async (chamberId: string, opts, cmd: Command) => {
      const { runMembersAdd } = await import('./members-add.js');
      await runMembersAdd(chamberId, opts, globalsOf(cmd), ctx);
    });

  const events = program
    .command('events')
    .description("List a chamber's events")
    .addHelpText('after', examples(['chamberctl events list ch_ms2fLiZry7iy3IuE --status upcoming']));

  addPaging(
    events
      .command('list')
      .description("List a chamber's events (v2), optionally those overlapping a date window")
      .argument('<chamber-id>', 'chamber id')
      .addOption(new Option('--status <status>', 'only events in this status').choices(CHOICES.eventStatus))
      .option('--from <date>', 'only events ending on or after this ISO 8601 date or date-time')
      .option('--to <date>', 'only events starting on or before this ISO 8601 date or date-time'),
  )
    .addHelpText(
      'after',
      examples([
        'chamberctl events list ch_8f3k2a',
        'chamberctl events list ch_8f3k2a --status upcoming --from 2026-03-01 --to 2026-03-31',
        "chamberctl events list ch_8f3k2a --all --json | jq -r '.[] | [.starts_at, .title] | @tsv'",
      ]),
    )
    .action(async (chamberId: string, opts, cmd: Command) => {
      const { runEventsList } = await import('./events-list.js');
      await runEventsList(chamberId, opts, globalsOf(cmd), ctx);
    });
}
