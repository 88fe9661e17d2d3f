import type { Command } from 'commander';
import type { CliContext } from '../../core/context.js';
import { dbHelp, examples } from '../shared/help-text.js';

const DB_HELP = dbHelp('the database');

export function registerSnapshotCommands(program: Command, ctx: CliContext): void {
  const snapshot = program
    .command('snapshot')
    .description('Write a local database to a snapshot file, or load one (a versioned JSON Lines file)')
    .addHelpText('after', examples(['chamberctl snapshot export directory.snapshot', 'chamberctl snapshot import directory.snapshot --db ./copy.db']));
  snapshot
    .command('export')
    .description('Write chambers, members and events of a local database as a snapshot file')
    .argument('[file]', 'file to write (mode 0600); stdout when absent or -')
    .option('--db <path>', DB_HELP)
    .addHelpText(
      'after',
      `
Examples:
  $ chamberctl snapshot export directory.snapshot
  $ chamberctl snapshot export --db postgres://chamber@db.internal/directory | gzip > directory.snapshot.gz`,
    )
    .action(async (file: string | undefined, opts: { db?: string }) => {
      const { runSnapshotExport } = await import('./snapshot.js');
      await runSnapshotExport(file, opts, ctx);
    });
  snapshot
    .command('import')
    .description('Load a snapshot file into a local database, all or nothing')
    .argument('<file>', 'snapshot file, or - to read stdin')
    .option('--db <path>', DB_HELP)
    .option('--replace', 'empty the directory (chambers, members, events, local changes) first; API clients stay')
    .option('--yes', 'with --replace: discard local changes not pushed yet without asking')
    .addHelpText(
      'after',
      `
Examples:
  $ chamberctl snapshot import directory.snapshot --db ./copy.db
  $ gunzip -c directory.snapshot.gz | chamberctl snapshot import - --replace

Every line is checked; the first problem is named by its line number, exit status 5, and
the database is left as it was. Without --replace, ids already in the database are refused.
--replace on a copy with local changes not pushed yet asks first on a terminal; elsewhere
it refuses (exit 2) unless --yes.`,
    )
    .action(async (file: string, opts: { db?: string; replace?: boolean; yes?: boolean }, cmd: Command) => {
      const { runSnapshotImport } = await import('./snapshot.js');
      await runSnapshotImport(file, opts, ctx, cmd.optsWithGlobals<{ json?: boolean }>());
    });
}
