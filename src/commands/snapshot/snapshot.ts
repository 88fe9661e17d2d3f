import { existsSync } from 'node:fs';
import type { CliContext } from '../../core/context.js';
import { CliError, ExitCode } from '../../core/exit-codes.js';
import { Sink } from '../../output/sink.js';
import { openStore, StartError } from '../../server/start.js';
import { SnapshotError, type SnapshotCounts } from '../../snapshot/format.js';
import { exportSnapshotTo, exportSnapshotToFile, importSnapshotFile } from '../../snapshot/files.js';
import { isPostgresUrl } from '../../storage/postgres/pg-storage.js';
import type { DirectoryStore } from '../../storage/store.js';
import { resolveDb } from '../../config/paths.js';
import { canPrompt } from '../shared/ask.js';

const summary = (c: SnapshotCounts) => `${c.chambers} chambers, ${c.members} members, ${c.events} events`;

export async function runSnapshotExport(file: string | undefined, opts: { db?: string }, ctx: CliContext): Promise<void> {
  const dbPath = resolveDb(opts.db, ctx.env);
  // Exporting must not create an empty database where there was none.
  if (!isPostgresUrl(dbPath) && dbPath !== ':memory:' && !existsSync(dbPath)) throw new CliError(`no database at ${dbPath}`, ExitCode.NOT_FOUND);
  await withStore(dbPath, async (store) => {
    if (file === undefined || file === '-') {
      const out = new Sink(ctx.stdout);
      const counts = await exportSnapshotTo(store, out);
      if (!out.closed) ctx.stderr.write(`exported ${summary(counts)} from ${store.location}\n`); // else the reader stopped early, quietly
    } else {
      const counts = await exportSnapshotToFile(store, file).catch(ioError(file, 'write'));
      ctx.stderr.write(`exported ${summary(counts)} from ${store.location} to ${file}\n`);
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
  await withStore(dbPath, async (store) => {
    if (opts.replace && !opts.yes) await confirmDiscardingChanges(store, ctx);
    let counts: SnapshotCounts | undefined;
    try {
      counts = await importSnapshotFile(store, file, { replace: Boolean(opts.replace) }, ctx.stdin);
    } catch (err) {
      if (err instanceof SnapshotError) throw new CliError(`${file === '-' ? 'stdin' : file}: ${err.message}; nothing was imported`, ExitCode.REJECTED);
      throw ioError(file, 'read')(err);
    }
    if (globals.json) ctx.stdout.write(`${JSON.stringify(counts)}\n`);
    ctx.stderr.write(`imported ${summary(counts!)} into ${store.location}${opts.replace ? ' (replacing what it held)' : ''}\n`);
  });
}

/**
 * `--replace` empties local changes not pushed yet with everything else: never silently. On a
 * terminal the person is asked; elsewhere the command refuses unless --yes.
 */
async function confirmDiscardingChanges(store: DirectoryStore, ctx: CliContext): Promise<void> {
  const pending = await store.pendingChanges();
  if (pending === 0) return;
  const what = `${store.location} has ${pending} local change${pending === 1 ? '' : 's'} not pushed yet (see \`chamberctl sync status\`)`;
  if (canPrompt(ctx)) {
    const { openAsker } = await import('../shared/ask.js');
    if (await (await openAsker(ctx)).confirm(`${what}; --replace discards them. Go on?`)) return;
    throw new CliError('nothing was imported', ExitCode.FAILURE);
  }
  throw new CliError(`${what}, which --replace would discard; push them first, or add --yes to discard them`, ExitCode.USAGE);
}

async function withStore(dbPath: string, work: (store: DirectoryStore) => Promise<void>): Promise<void> {
  let store: DirectoryStore;
  try {
    store = await openStore(dbPath, { cacheMiB: 64, bulk: true }); // a bounded memory map: export reads the whole file
  } catch (e) {
    if (e instanceof StartError) throw new CliError(e.message, ExitCode.FAILURE);
    throw e;
  }
  try {
    await work(store);
  } finally {
    await store.close();
  }
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
