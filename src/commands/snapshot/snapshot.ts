import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import type { CliContext } from '../../core/context.js';
import { CliError, ExitCode } from '../../core/exit-codes.js';
import { Sink } from '../../output/sink.js';
import { SnapshotError, type SnapshotCounts } from '../../snapshot/format.js';
import { exportSnapshotTo, exportSnapshotToFile, importSnapshotFile } from '../../snapshot/files.js';
import { withDatabase, type Database } from '../../storage/open.js';
import { defaultDbPath, resolveDb } from '../../config/paths.js';
import { heldIds, lostByReplacing } from '../../snapshot/replace-loss.js';
import { canPrompt } from '../shared/ask.js';

/** Both commands read or write the whole database: a bounded memory map, no request bounds. */
const SNAPSHOT_OPEN = { cacheMiB: 64, bulk: true };

const summary = (c: SnapshotCounts) => `${c.chambers} chambers, ${c.members} members, ${c.events} events`;

export async function runSnapshotExport(file: string | undefined, opts: { db?: string; yes?: boolean }, ctx: CliContext): Promise<void> {
  if (file !== undefined && file !== '-' && existsSync(file)) {
    const { confirmDestructive } = await import('../shared/ask.js');
    await confirmDestructive(ctx, {
      yes: opts.yes,
      question: `${file} exists. Replace it with the snapshot?`,
      offTerminal: `${file} exists and the snapshot would replace it`,
      declined: `${file} was left as it was`,
    });
  }
  // Exporting must not create an empty database where there was none.
  await withDatabase(resolveDb(opts.db, ctx.env), { mustExist: true }, SNAPSHOT_OPEN, async (db) => {
    if (file === undefined || file === '-') {
      const out = new Sink(ctx.stdout);
      const counts = await exportSnapshotTo(db.snapshot(), out);
      if (!out.closed) ctx.stderr.write(`exported ${summary(counts)} from ${db.location}\n`); // else the reader stopped early, quietly
    } else {
      const replaced = existsSync(file);
      const counts = await exportSnapshotToFile(db.snapshot(), file).catch(ioError(file, 'write'));
      ctx.stderr.write(`exported ${summary(counts)} from ${db.location} to ${file}${replaced ? ' (replacing the file that was there)' : ''}\n`);
    }
  });
}

export async function runSnapshotImport(
  file: string,
  opts: { db?: string; replace?: boolean; yes?: boolean; backup?: boolean },
  ctx: CliContext,
  globals: { json?: boolean },
): Promise<void> {
  const dbPath = resolveDb(opts.db, ctx.env);
  if (file !== '-' && !existsSync(file)) throw new CliError(`cannot read ${file}: no such file`, ExitCode.FAILURE);
  await withDatabase(dbPath, {}, SNAPSHOT_OPEN, async (db) => {
    const replaced = opts.replace ? await prepareReplace(db, file, opts, ctx) : undefined;
    let counts: SnapshotCounts | undefined;
    try {
      counts = await importSnapshotFile(db.snapshot(), file, { replace: Boolean(opts.replace) }, ctx.stdin);
    } catch (err) {
      // the database is as it was: its backup is not needed
      if (replaced?.backup) await rm(replaced.backup, { force: true });
      if (err instanceof SnapshotError) throw new CliError(`${file === '-' ? 'stdin' : file}: ${err.message}; nothing was imported`, ExitCode.REJECTED);
      throw ioError(file, 'read')(err);
    }
    if (replaced?.backup) {
      ctx.stderr.write(`saved what ${db.location} held to ${replaced.backup}; restore it with: chamberctl snapshot import ${replaced.backup} --db ${db.location} --replace\n`);
    }
    if (globals.json) ctx.stdout.write(`${JSON.stringify(counts)}\n`);
    const removed = replaced?.lost && replaced.lost.chambers + replaced.lost.members + replaced.lost.events + (replaced.pending ?? 0) > 0 ? `; removed ${describeLoss(replaced.lost, replaced.pending ?? 0).replace(' does not ', ' did not ').replace(' not pushed yet', ' never pushed')}` : '';
    ctx.stderr.write(`imported ${summary(counts!)} into ${db.location}${opts.replace ? ` (replacing what it held${removed})` : ''}\n`);
  });
}

/**
 * Before `--replace` empties the database (docs/guides/snapshots.md): refused while a `serve`
 * has it open (it would go on answering from what is gone); when the database holds anything,
 * asked on a terminal with what would be lost in numbers (default no: exit 1; Ctrl-C: 130),
 * and off one only with --yes (exit 2, nothing changed); then what it held is exported beside
 * it (0600) unless --no-backup, so a replace is never irreversible by accident.
 */
async function prepareReplace(
  db: Database,
  file: string,
  opts: { yes?: boolean; backup?: boolean },
  ctx: CliContext,
): Promise<{ lost?: SnapshotCounts; backup?: string; pending?: number }> {
  const holders = await db.serveLeases().holders();
  if (holders.length > 0) {
    const h = holders[0]!;
    const where = h.host === hostname() ? `pid ${h.pid}` : `pid ${h.pid} on ${h.host}`;
    throw new CliError(
      `chamberctl serve (${where}, ${h.url}) has ${db.location} open${holders.length > 1 ? ` (and ${holders.length - 1} more)` : ''}: stop it first (Ctrl-C in its terminal, or kill ${h.pid}${h.host === hostname() ? '' : ` on ${h.host}`}), then import`,
      ExitCode.FAILURE,
    );
  }
  const held = await heldIds(db.snapshot());
  const pending = await db.store.pendingChanges();
  const holds = held.chambers.size + held.members.size + held.events.size + pending > 0;
  if (!holds) return {};
  const lost = file === '-' ? { chambers: held.chambers.size, members: held.members.size, events: held.events.size } : await lostByReplacing(held, file);
  const loss = describeLoss(lost, pending);
  if (!opts.yes) {
    if (!canPrompt(ctx)) {
      throw new CliError(`--replace would delete ${loss} from ${db.location}: pass --yes to replace it without a terminal to confirm on`, ExitCode.USAGE);
    }
    const { openAsker } = await import('../shared/ask.js');
    const backup = opts.backup === false ? 'no backup (--no-backup)' : 'a backup of it is written first';
    let yes: boolean;
    try {
      yes = await (await openAsker(ctx)).confirm(`Replace what ${db.location} holds? ${cap(loss)} would be lost (API clients and the audit trail stay; ${backup}).`);
    } catch (err) {
      if (err instanceof CliError && err.exitCode === ExitCode.INTERRUPTED) throw new CliError('cancelled; nothing was imported', ExitCode.INTERRUPTED);
      throw err;
    }
    if (!yes) throw new CliError('nothing was imported', ExitCode.FAILURE);
  }
  if (opts.backup === false) return { lost, pending };
  const backup = backupPath(db, ctx);
  await mkdir(dirname(backup), { recursive: true });
  await exportSnapshotToFile(db.snapshot(), backup).catch(ioError(backup, 'write'));
  return { lost, backup, pending };
}

/** `1 chamber, 12 members that the snapshot does not hold, and 2 local changes not pushed yet`. */
function describeLoss(lost: SnapshotCounts, pending: number): string {
  const n = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;
  const records = [
    lost.chambers && n(lost.chambers, 'chamber'),
    lost.members && n(lost.members, 'member'),
    lost.events && n(lost.events, 'event'),
  ].filter(Boolean);
  const held = records.length ? `${records.join(', ')} that the snapshot does not hold` : 'no record the snapshot does not hold (those in both are overwritten)';
  return pending > 0 ? `${held}, and ${n(pending, 'local change')} not pushed yet (see \`chamberctl sync status\`)` : held;
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Beside a SQLite file; a PostgreSQL database's in the data directory, named by its database. */
function backupPath(db: Database, ctx: CliContext): string {
  const stamp = ctx.now().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  if (db.backend === 'sqlite') return `${db.location}.before-replace-${stamp}.snapshot`;
  let name = 'postgres';
  try {
    name = decodeURIComponent(new URL(db.location).pathname.slice(1)) || name;
  } catch {
    // the location is always a URL here; the default name otherwise
  }
  return join(dirname(defaultDbPath(ctx.env)), `${name}.before-replace-${stamp}.snapshot`);
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
