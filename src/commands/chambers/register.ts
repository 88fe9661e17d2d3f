import { Option, type Command } from 'commander';
import type { CliContext } from '../../core/context.js';
import { CHOICES } from '../shared/choices.js';
import { CHAMBER_FIELDS, CHAMBER_INCLUDES } from '../../contract/values.js';
import { addJsonFields } from '../shared/json-fields.js';
import { addPaging, globalsOf } from '../shared/list-options.js';
import { CHANGE_VERBS, refuseVerbs } from '../shared/not-in-interface.js';

/** chambers list|get|create. */
export function registerChambersCommands(program: Command, ctx: CliContext): void {
  const chambers = program
    .command('chambers')
    .description('List, show and create chambers');

  addJsonFields(
    addPaging(
      chambers
        .command('list')
        .description('List chambers, one page at a time or all of them')
        .addOption(new Option('--type <type>', 'only chambers of this type (v2)').choices(CHOICES.chamberType))
        .addOption(new Option('--status <status>', 'only chambers in this status (v2)').choices(CHOICES.chamberStatus))
        .addOption(new Option('--sort <field>', 'sort by name or created_at; a leading - sorts descending (v2)').choices(CHOICES.chamberSort)),
    ),
    CHAMBER_FIELDS,
    'a chamber',
    ctx,
  )
    .action(async (opts, cmd: Command) => {
      const { runChambersList } = await import('./list.js');
      await runChambersList(opts, globalsOf(cmd), ctx);
    });

  addJsonFields(chambers.command('get'), [...CHAMBER_FIELDS, ...CHAMBER_INCLUDES], 'a chamber', ctx)
    .description('Show one chamber, optionally with its members and events')
    .argument('<id>', 'chamber id')
    .option('--include <relations>', 'embed related resources: members, events or members,events (v2)')
    .action(async (id: string, opts, cmd: Command) => {
      const { runChambersGet } = await import('./get.js');
      await runChambersGet(id, opts, globalsOf(cmd), ctx);
    });

  addJsonFields(chambers.command('create'), CHAMBER_FIELDS, 'a chamber', ctx)
    .description('Create a chamber (v2)')
    // required, but checked by the command: on a terminal it asks for what is missing
    .option('--name <name>', 'chamber name (required)')
    .addOption(new Option('--type <type>', 'chamber type (required)').choices(CHOICES.chamberType))
    .option('--hq-id <id>', 'the HQ chamber of a subsidiary (required for --type subsidiary)')
    .option('--street <street>', 'street and number (required)')
    .option('--city <city>', 'city (required)')
    .option('--postal-code <code>', 'postal code')
    .option('--country <cc>', 'ISO 3166-1 alpha-2 country code, e.g. DE (required)')
    .action(async (opts, cmd: Command) => {
      const { runChambersCreate } = await import('./create.js');
      await runChambersCreate(opts, globalsOf(cmd), ctx);
    });

  refuseVerbs(
    chambers,
    'chambers',
    CHANGE_VERBS,
    'to change or close a chamber, ask the directory\'s operator; `chamberctl chambers get ID` shows one',
  );
}
