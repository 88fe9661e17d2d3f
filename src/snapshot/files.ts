import { createWriteStream } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { Sink } from '../output/sink.js';
import { randomAlphanumeric } from '../storage/ids.js';
import type { SnapshotBackend } from '../storage/snapshot-backend.js';
import { exportSnapshot } from './export.js';
import type { SnapshotCounts } from './format.js';
import { importSnapshot, type ImportOptions } from './import.js';

/**
 * Exports to `file`, atomically: written to FILE.tmp-… (mode 0600: it holds personal data)
 * and renamed over FILE only once complete, so FILE is never a half-written snapshot.
 */
export async function exportSnapshotToFile(db: SnapshotBackend, file: string): Promise<SnapshotCounts> {
  const tmp = `${file}.tmp-${process.pid}-${randomAlphanumeric(6)}`;
  const out = createWriteStream(tmp, { flags: 'wx', mode: 0o600 });
  try {
    await new Promise<void>((resolve, reject) => out.once('open', () => resolve()).once('error', reject));
    const counts = await exportSnapshot(db, new Sink(out));
    out.end();
    await finished(out);
    await rename(tmp, file);
    return counts;
  } catch (err) {
    out.destroy();
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/** Exports to a stream (stdout); `out.closed` afterwards when its reader went away first. */
export async function exportSnapshotTo(db: SnapshotBackend, out: Sink): Promise<SnapshotCounts> {
  return exportSnapshot(db, out);
}

/** Imports `file` (or `stdin` when `file` is `-`); an unreadable file fails before anything starts. */
export async function importSnapshotFile(db: SnapshotBackend, file: string, opts: ImportOptions, stdin?: Readable): Promise<SnapshotCounts | undefined> {
  let input: Readable;
  if (file === '-' && stdin) input = stdin;
  else {
    const handle = await open(file, 'r');
    input = handle.createReadStream();
  }
  try {
    return await importSnapshot(db, input, opts);
  } finally {
    if (input !== stdin) input.destroy();
  }
}
