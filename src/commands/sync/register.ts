import type { Command } from 'commander';
import type { CliContext, GlobalOptions } from '../../core/context.js';
import { dbHelp, examples } from '../shared/help-text.js';
import type { SyncOptions } from './sync.js';

/** `sync pull|status|push|discard` (README, "Working offline"). */
export function registerSync(program: Command, ctx: CliContext): void {
  const sync = program
    .command('sync')
    .description('Copy the directory into a local database for offline work, and send back what was created there')
    .addHelpText(
      'after',
      examples([
        'chamberctl sync pull --db ~/dir.db            # copy the current profile\'s directory',
        'chamberctl serve --db ~/dir.db --seed none &  # work on the copy offline',
        'chamberctl sync status --db ~/dir.db',
        'chamberctl sync push --db ~/dir.db --dry-run',
        'chamberctl sync push --db ~/dir.db',
      ]),
    );
  const dbOption = '--db <path>';
  const copyHelp = dbHelp('the local copy');
  const globals = (cmd: Command) => cmd.optsWithGlobals<GlobalOptions & SyncOptions>();

  sync
    .command('pull')
    .description('Copy every chamber, member and event behind a profile into the local database (resumable)')
    .option('--from <profile>', "the profile to read from (default: the copy's source profile, else the current profile)")
    .option(dbOption, copyHelp)
    .option('--concurrency <n>', 'chambers read at once, 1 to 32', '8')
    .addHelpText(
      'after',
      examples([
        'chamberctl sync pull --db ~/dir.db                 # the current profile, into ~/dir.db',
        'chamberctl sync pull --from prod --db ~/prod.db    # run it again to refresh, or to finish an interrupted pull',
      ]),
    )
    .action(async (opts: SyncOptions, cmd: Command) => {
      const { runSyncPull } = await import('./sync.js');
      await runSyncPull(opts, globals(cmd), ctx);
    });
  sync
    .command('status')
    .description('What the local copy came from, when, its counts, and its pending local changes')
    .option(dbOption, copyHelp)
    .addHelpText('after', examples(['chamberctl sync status --db ~/dir.db', "chamberctl sync status --db ~/dir.db --json | jq '.pending[] | select(.state == \"rejected\")'"]))
    .action(async (opts: SyncOptions, cmd: Command) => {
      const { runSyncStatus } = await import('./sync.js');
      await runSyncStatus(opts, globals(cmd), ctx);
    });
  sync
    .command('push')
    .description('Send the chambers and members created in the local copy to the directory it came from')
    .option('--to <profile>', "the profile to send to (default: the copy's source profile)")
    .option(dbOption, copyHelp)
    .option('--dry-run', 'list what would be sent, send nothing')
    .addHelpText(
      'after',
      examples(['chamberctl sync push --db ~/dir.db --dry-run', 'chamberctl sync push --db ~/dir.db          # exit 5 when the remote rejected a change']),
    )
    .action(async (opts: SyncOptions, cmd: Command) => {
      const { runSyncPush } = await import('./sync.js');
      await runSyncPush(opts, globals(cmd), ctx);
    });
  sync
    .command('discard')
    .description('Drop one pending local change, and the record it made')
    .argument('<id>', 'the change (chg_…), or the local record it made (ch_…, mb_…), as `sync status` lists them')
    .option(dbOption, copyHelp)
    .option('--yes', 'do not ask first (on a terminal it asks)')
    .addHelpText('after', examples(['chamberctl sync discard chg_VbmIU7b7Md1A1PFN --db ~/dir.db', 'chamberctl sync discard mb_3kR9vXq2LmN8pT4w --db ~/dir.db --yes']))
    .action(async (changeId: string, opts: SyncOptions, cmd: Command) => {
      const { runSyncDiscard } = await import('./sync.js');
      await runSyncDiscard(changeId, opts, globals(cmd), ctx);
    });
}
