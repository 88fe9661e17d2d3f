import type { Command } from 'commander';
import type { CliContext, GlobalOptions } from '../../core/context.js';
import { dbHelp } from '../shared/help-text.js';
import { addJqOption } from '../shared/jq-option.js';
import type { SyncOptions } from './sync.js';

/** `sync pull|status|push|discard` (docs/guides/working-offline.md). */
export function registerSync(program: Command, ctx: CliContext): void {
  const sync = program
    .command('sync')
    .description('Copy the directory into a local database for offline work, and send back what was created there');
  const dbOption = '--db <path>';
  const copyHelp = dbHelp('the local copy');
  const globals = (cmd: Command) => cmd.optsWithGlobals<GlobalOptions & SyncOptions>();

  addJqOption(sync.command('pull'), ctx)
    .description('Copy every chamber, member and event behind a profile into the local database (resumable)')
    .option('--from <profile>', "the profile to read from (default: the copy's source profile, else the current profile)")
    .option(dbOption, copyHelp)
    .option('--concurrency <n>', 'chambers read at once, 1 to 32', '8')
    .action(async (opts: SyncOptions, cmd: Command) => {
      const { runSyncPull } = await import('./sync.js');
      await runSyncPull(opts, globals(cmd), ctx);
    });
  addJqOption(sync.command('status'), ctx)
    .description('What the local copy came from, when, its counts, and its pending local changes')
    .option(dbOption, copyHelp)
    .action(async (opts: SyncOptions, cmd: Command) => {
      const { runSyncStatus } = await import('./sync.js');
      await runSyncStatus(opts, globals(cmd), ctx);
    });
  addJqOption(sync.command('push'), ctx)
    .description('Send the chambers and members created in the local copy to the directory it came from')
    .option('--to <profile>', "the profile to send to (default: the copy's source profile)")
    .option(dbOption, copyHelp)
    .option('--dry-run', 'list what would be sent, send nothing')
    .action(async (opts: SyncOptions, cmd: Command) => {
      const { runSyncPush } = await import('./sync.js');
      await runSyncPush(opts, globals(cmd), ctx);
    });
  addJqOption(sync.command('discard'), ctx)
    .description('Drop one pending local change, and the record it made')
    .argument('<id>', 'the change (chg_…), or the local record it made (ch_…, mb_…), as `sync status` lists them')
    .option(dbOption, copyHelp)
    .option('--yes', 'do not ask first (required without a terminal)')
    .action(async (changeId: string, opts: SyncOptions, cmd: Command) => {
      const { runSyncDiscard } = await import('./sync.js');
      await runSyncDiscard(changeId, opts, globals(cmd), ctx);
    });
}
