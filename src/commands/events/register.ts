import { Option, type Command } from 'commander';
import type { CliContext } from '../../core/context.js';
import { CHOICES } from '../shared/choices.js';
import { EVENT_FIELDS } from '../../contract/values.js';
import { addJsonFields } from '../shared/json-fields.js';
import { addPaging, globalsOf } from '../shared/list-options.js';
import { CHANGE_VERBS, refuseVerbs } from '../shared/not-in-interface.js';

/** events list. */
export function registerEventsCommands(program: Command, ctx: CliContext): void {
  const events = program
    .command('events')
    .description("List a chamber's events");

  addJsonFields(
    addPaging(
      events
        .command('list')
        .description("List a chamber's events (v2), optionally those overlapping a date window")
        .argument('<chamber-id>', 'chamber id')
        .addOption(new Option('--status <status>', 'only events in this status').choices(CHOICES.eventStatus))
        .option('--from <date>', 'only events ending on or after this ISO 8601 date or date-time')
        .option('--to <date>', 'only events starting on or before this ISO 8601 date or date-time'),
    ),
    EVENT_FIELDS,
    'an event',
    ctx,
  )
    .action(async (chamberId: string, opts, cmd: Command) => {
      const { runEventsList } = await import('./list.js');
      await runEventsList(chamberId, opts, globalsOf(cmd), ctx);
    });

  refuseVerbs(
    events,
    'events',
    ['create', 'add', ...CHANGE_VERBS],
    "events are read-only through it (the directory's operator manages them); `chamberctl events list CHAMBER_ID` shows them",
  );
}
