import { Option, type Command } from 'commander';
import type { CliContext } from '../../core/context.js';
import { CHOICES } from '../shared/choices.js';
import { examples } from '../shared/help-text.js';
import { MEMBER_FIELDS } from '../../contract/values.js';
import { addJsonFields } from '../shared/json-fields.js';
import { addPaging, globalsOf } from '../shared/list-options.js';
import { CHANGE_VERBS, refuseVerbs } from '../shared/not-in-interface.js';

const IMPORT_EXAMPLES = `
Examples:
  $ chamberctl members import ch_8f3k2a members.csv
  $ chamberctl members import ch_8f3k2a members.csv --dry-run --report problems.csv
  $ chamberctl members import ch_8f3k2a export.csv --delimiter ';' --concurrency 16 --report problems.csv
  $ chamberctl members import ch_8f3k2a problems.csv          # the fixed report, fed straight back in
  $ gunzip -c members.csv.gz | chamberctl members import ch_8f3k2a - --json

The CSV needs a header row naming the columns name, email, membership_type and optionally
phone (any order, any case; other columns are ignored). Rows whose e-mail is already in the
chamber are skipped, so running the same file again finishes an interrupted import.
Exit status: 0 when every row was created or skipped, 1 when a row was invalid, a duplicate
or failed, 5 when the header is unusable, 130 after Ctrl-C.
`;

/** members list|get|add|import (and what the interface cannot do: update, delete). */
export function registerMembersCommands(program: Command, ctx: CliContext): void {
  const members = program
    .command('members')
    .description('List, show, add and import the members of a chamber')
    .addHelpText(
      'after',
      examples(['chamberctl members list ch_ms2fLiZry7iy3IuE --status active', 'chamberctl members import ch_ms2fLiZry7iy3IuE members.csv']),
    );

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
      const { runMembersList } = await import('./list.js');
      await runMembersList(chamberId, opts, globalsOf(cmd), ctx);
    });

  addJsonFields(members.command('get'), MEMBER_FIELDS, 'a member')
    .description('Show one member of a chamber (v2; the embedded server has it, another server may not)')
    .argument('<chamber-id>', 'chamber id')
    .argument('<member-id>', 'member id')
    .addHelpText(
      'after',
      examples(['chamberctl members get ch_8f3k2a mb_3kd9s0', 'chamberctl members get ch_8f3k2a mb_3kd9s0 --json | jq -r .email']),
    )
    .action(async (chamberId: string, memberId: string, _opts, cmd: Command) => {
      const { runMembersGet } = await import('./get.js');
      await runMembersGet(chamberId, memberId, globalsOf(cmd), ctx);
    });

  addJsonFields(members.command('add'), MEMBER_FIELDS, 'a member')
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
      const { runMembersAdd } = await import('./add.js');
      await runMembersAdd(chamberId, opts, globalsOf(cmd), ctx);
    });

  members
    .command('import')
    .description('Add every valid row of a CSV file as a member of a chamber (v2)')
    .argument('<chamber-id>', 'chamber id')
    .argument('<file>', 'CSV file, or - to read stdin')
    .option('--dry-run', 'read and check every row, send nothing (the chamber is still looked up)')
    .option('--concurrency <n>', 'requests in flight at once, 1 to 64', '8')
    .option('--report <path>', 'write the rows not created (invalid, duplicate, failed) to this CSV file, mode 0600')
    .option('--delimiter <char>', "field delimiter: ',', ';', '|', or tab (also \\t)", ',')
    .addHelpText('after', IMPORT_EXAMPLES)
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
