import { Option, type Command } from 'commander';
import type { CliContext } from '../../core/context.js';
import { CHOICES } from '../shared/choices.js';
import { MEMBER_FIELDS } from '../../contract/values.js';
import { addJsonFields } from '../shared/json-fields.js';
import { addJqOption } from '../shared/jq-option.js';
import { IMPORT_SUMMARY_FIELDS } from './import-fields.js';
import { addPaging, globalsOf } from '../shared/list-options.js';
import { CHANGE_VERBS, refuseVerbs } from '../shared/not-in-interface.js';

/** members list|get|add|import (and what the interface cannot do: update, delete). */
export function registerMembersCommands(program: Command, ctx: CliContext): void {
  const members = program
    .command('members')
    .description('List, show, add and import the members of a chamber');

  addJsonFields(
    addPaging(
      members
        .command('list')
        .description("List a chamber's members")
        .argument('<chamber-id>', 'chamber id')
        .addOption(new Option('--status <status>', 'only members in this status (v2)').choices(CHOICES.memberStatus))
        .addOption(new Option('--sort <field>', 'sort by name or joined_at; a leading - sorts descending (v2)').choices(CHOICES.memberSort)),
    ),
    MEMBER_FIELDS,
    'a member',
    ctx,
  )
    .action(async (chamberId: string, opts, cmd: Command) => {
      const { runMembersList } = await import('./list.js');
      await runMembersList(chamberId, opts, globalsOf(cmd), ctx);
    });

  addJsonFields(members.command('get'), MEMBER_FIELDS, 'a member', ctx)
    .description('Show one member of a chamber (v2; the embedded server has it, another server may not)')
    .argument('<chamber-id>', 'chamber id')
    .argument('<member-id>', 'member id')
    .action(async (chamberId: string, memberId: string, _opts, cmd: Command) => {
      const { runMembersGet } = await import('./get.js');
      await runMembersGet(chamberId, memberId, globalsOf(cmd), ctx);
    });

  addJsonFields(members.command('add'), MEMBER_FIELDS, 'a member', ctx)
    .description('Add a member to a chamber (v2)')
    .argument('<chamber-id>', 'chamber id')
    // required, but checked by the command: on a terminal it asks for what is missing
    .option('--name <name>', 'member name (required)')
    .option('--email <email>', 'e-mail address, unique within the chamber (required)')
    .option('--phone <phone>', 'phone number')
    .addOption(new Option('--membership-type <type>', 'membership type (required)').choices(CHOICES.membershipType))
    .action(async (chamberId: string, opts, cmd: Command) => {
      const { runMembersAdd } = await import('./add.js');
      await runMembersAdd(chamberId, opts, globalsOf(cmd), ctx);
    });

  addJsonFields(members.command('import'), IMPORT_SUMMARY_FIELDS, "an import's summary", ctx)
    .description('Add every valid row of a CSV file as a member of a chamber (v2)')
    .argument('<chamber-id>', 'chamber id')
    .argument('<file>', 'CSV file, or - to read stdin')
    .option('--dry-run', 'read and check every row, send nothing (the chamber is still looked up)')
    .option('--concurrency <n>', 'requests in flight at once, 1 to 64', '8')
    .option('--report <path>', 'write the rows not created (invalid, duplicate, failed) to this CSV file, mode 0600')
    .option('--delimiter <char>', "field delimiter: ',', ';', '|', or tab (also \\t)", ',')
    .action(async (chamberId: string, file: string, opts, cmd: Command) => {
      const { runMembersImport } = await import('./import.js');
      await runMembersImport(chamberId, file, opts, globalsOf(cmd), ctx);
    });

  refuseVerbs(
    members,
    'members',
    CHANGE_VERBS,
    'to change or remove a member, ask the directory\'s operator; `chamberctl members get CHAMBER_ID MEMBER_ID` shows one',
  );
}
