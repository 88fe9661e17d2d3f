import { existsSync } from 'node:fs';
import type { CliContext } from '../../core/context.js';
import { CliError, ExitCode } from '../../core/exit-codes.js';
import { Sink } from '../../output/sink.js';
import { SnapshotError, type SnapshotCounts } from '../../snapshot/format.js';
import { exportSnapshotTo, exportSnapshotToFile, importSnapshotFile } from '../../snapshot/files.js';
import { withDatabase, type Database } from '../../storage/open.js';
import { resolveDb } from '../../config/paths.js';
import { canPrompt } from '../shared/ask.js';

/** Both commands read or write the whole database: a bounded memory map, no request bounds. */
const SNAPSHOT_OPEN = { cacheMiB: 64, bulk: true };

const summary = (c: SnapshotCounts) => `${c.chambers} chambers, ${c.members} members, ${c.events} events`;

export async function runSnapshotExport(file: string | undefined, opts: { db?: string }, ctx: CliContext): Promise<void> {
  // Exporting must not create an empty database where there was none.
  await withDatabase(resolveDb(opts.db, ctx.env), { mustExist: true }, SNAPSHOT_OPEN, async (db) => {
    if (file === undefined || file === '-') {
      const out = new Sink(ctx.stdout);
      const counts = await exportSnapshotTo(db.snapshot(), out);
      if (!out.closed) ctx.stderr.write(`exported ${summary(counts)} from ${db.location}\n`); // else the reader stopped early, quietly
    } else {
      const counts = await exportSnapshotToFile(db.snapshot(), file).catch(ioError(file, 'write'));
      ctx.stderr.write(`exported ${summary(counts)} from ${db.location} to ${file}\n`);
    }
  });
}

export async function runSnapshotImport(
  file: string,
  opts: { db?: string; replace?: boolean; yes?: boolean },
  ctx: CliContext,
  globals: { json?: boolean },
): Promise<void> {
  const dbPath = resolveDb(opts.db, ctx.env);
  if (file !== '-' && !existsSync(file)) throw new CliError(`cannot read ${file}: no such file`, ExitCode.FAILURE);
  await withDatabase(dbPath, {}, SNAPSHOT_OPEN, async (db) => {
    if (opts.replace && !opts.yes) await confirmDiscardingChanges(db, ctx);
    let counts: SnapshotCounts | undefined;
    try {
      counts = await importSnapshotFile(db.snapshot(), file, { replace: Boolean(opts.replace) }, ctx.stdin);
    } catch (err) {
      if (err instanceof SnapshotError) throw new CliError(`${file === '-' ? 'stdin' : file}: ${err.message}; nothing was imported`, ExitCode.REJECTED);
      throw ioError(file, 'read')(err);
    }
    if (globals.json) ctx.stdout.write(`${JSON.stringify(counts)}\n`);
    ctx.stderr.write(`imported ${summary(counts!)} into ${db.location}${opts.replace ? ' (replacing what it held)' : ''}\n`);
  });
}

/**
 * `--replace` empties local changes not pushed yet with everything else: never silently. On a
 * terminal the person is asked; elsewhere the command refuses unless --yes.
 */
async function confirmDiscardingChanges(db: Database, ctx: CliContext): Promise<void> {
  const pending = await db.store.pendingChanges();
  if (pending === 0) return;
  const what = `${db.location} has ${pending} local change${pending === 1 ? '' : 's'} not pushed yet (see \`chamberctl sync status\`)`;
  if (canPrompt(ctx)) {
    const { openAsker } = await import('../shared/ask.js');
    if (await (await openAsker(ctx)).confirm(`${what}; --replace discards them. Go on?`)) return;
    throw new CliError('nothing was imported', ExitCode.FAILURE);
  }
  throw new CliError(`${what}, which --replace would discard; push them first, or add --yes to discard them`, ExitCode.USAGE);
}

/** A file that cannot be read or written: one line, exit 1. */
const ioError =
  (file: string, verb: 'read' | 'write') =>
  (err: unknown): never => {
    if (err instanceof CliError) throw err;
    const e = err as NodeJS.ErrnoException;
    if (typeof e.code === 'string' && e.syscall) throw new CliError(`cannot ${verb} ${file}: ${REASONS[e.code] ?? e.code}`, ExitCode.FAILURE);
    throw err;
  };

const REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOSPC: 'no space left on the device',
  EROFS: 'read-only file system',
};
