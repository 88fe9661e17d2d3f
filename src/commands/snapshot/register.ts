import { Option, type Command } from 'commander';
import { usageError } from '../../core/exit-codes.js';
import type { CliContext } from '../../core/context.js';
import { dbHelp } from '../shared/help-text.js';

const DB_HELP = dbHelp('the database');

export function registerSnapshotCommands(program: Command, ctx: CliContext): void {
  const snapshot = program
    .command('snapshot')
    .description('Write a local database to a snapshot file, or load one (a versioned JSON Lines file)');
  snapshot
    .command('export')
    .description('Write chambers, members and events of a local database as a snapshot file')
    .argument('[file]', 'file to write (mode 0600); stdout when absent or -')
    .option('--db <path>', DB_HELP)
    .option('--yes', 'replace FILE when it exists without asking (required without a terminal)')
    // `-o FILE`, as other tools write it: not an option here, but said so with the command that works
    .addOption(new Option('-o, --output <file>').hideHelp())
    .action(async (file: string | undefined, opts: { db?: string; yes?: boolean; output?: string }) => {
      if (opts.output !== undefined) {
        throw usageError(`snapshot export takes the file as an argument, not -o: chamberctl snapshot export ${opts.output}`);
      }
      const { runSnapshotExport } = await import('./snapshot.js');
      await runSnapshotExport(file, opts, ctx);
    });
  snapshot
    .command('import')
    .description('Load a snapshot file into a local database, all or nothing')
    .argument('<file>', 'snapshot file, or - to read stdin')
    .option('--db <path>', DB_HELP)
    .option('--replace', 'empty the directory (chambers, members, events, local changes) first; API clients and the audit trail stay')
    .option('--yes', 'with --replace: replace without asking (required off a terminal when the database holds anything)')
    .option('--no-backup', 'with --replace: do not write what the database held to a snapshot beside it first')
    .action(async (file: string, opts: { db?: string; replace?: boolean; yes?: boolean; backup?: boolean }, cmd: Command) => {
      const { runSnapshotImport } = await import('./snapshot.js');
      await runSnapshotImport(file, opts, ctx, cmd.optsWithGlobals<{ json?: boolean }>());
    });
}
