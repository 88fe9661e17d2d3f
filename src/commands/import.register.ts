import type { Command } from 'commander';
import type { CliContext } from '../cli/context.js';
import type { GlobalOptions } from '../client/types.js';

const EXAMPLES = `
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

/** `members import`, added to the existing `members` command (src/commands/directory.register.ts). */
export function registerImportCommand(program: Command, ctx: CliContext): void {
  const members = program.commands.find((c) => c.name() === 'members');
  if (!members) throw new Error('registerImportCommand: the members command must be registered first');
  members
    .command('import')
    .description('Add every valid row of a CSV file as a member of a chamber (v2)')
    .argument('<chamber-id>', 'chamber id')
    .argument('<file>', 'CSV file, or - to read stdin')
    .option('--dry-run', 'read and check every row, send nothing (the chamber is still looked up)')
    .option('--concurrency <n>', 'requests in flight at once, 1 to 64', '8')
    .option('--report <path>', 'write the rows not created (invalid, duplicate, failed) to this CSV file, mode 0600')
    .option('--delimiter <char>', "field delimiter: ',', ';', '|', or tab (also \\t)", ',')
    .addHelpText('after', EXAMPLES)
    .action(async (chamberId: string, file: string, opts, cmd: Command) => {
      const { runMembersImport } = await import('./members-import.js');
      await runMembersImport(chamberId, file, opts, cmd.optsWithGlobals<GlobalOptions>(), ctx);
    });
}
