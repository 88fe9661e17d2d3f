import type { Sink } from '../output/sink.js';
import { eventOf, memberOf, toChamber } from '../storage/rows.js';
import { endLine, HEADER_LINE, recordLine, type RecordKind, type SnapshotCounts } from './format.js';
import type { SnapshotBackend, Stored } from '../storage/snapshot-backend.js';

/**
 * Writes the database as a snapshot (docs/snapshot-format.md) to `out`, a chunk of rows at a
 * time, waiting for 'drain' when `out` is full (Sink): memory stays flat however large the
 * directory; a reader that goes away (`| head`) ends it quietly (`out.closed`), as for any
 * output. A record is its stored `raw` text when it has one, else built from the columns
 * in JavaScript (events with their stored status), so both backends write the same bytes.
 */
export async function exportSnapshot(backend: SnapshotBackend, out: Sink): Promise<SnapshotCounts> {
  return backend.read(async (tables) => {
    const counts: SnapshotCounts = { chambers: 0, members: 0, events: 0 };
    await out.write(`${HEADER_LINE}\n`);
    // each table in turn; a reader that went away ends the export where it is
    if (!(await writeTable(tables.chambers(), 'chamber', toChamber, out, (n) => (counts.chambers += n)))) return counts;
    if (!(await writeTable(tables.members(), 'member', memberOf, out, (n) => (counts.members += n)))) return counts;
    if (!(await writeTable(tables.events(), 'event', eventOf, out, (n) => (counts.events += n)))) return counts;
    await out.write(endLine(counts));
    return counts;
  });
}

/**
 * A table's rows as records, a chunk at a time, each chunk counted as it is written; false
 * once the reader has gone away (what was written is then all there is).
 */
async function writeTable<R>(
  chunks: AsyncIterable<Stored<R>[]>,
  kind: RecordKind,
  record: (row: R) => unknown,
  out: Sink,
  count: (rows: number) => void,
): Promise<boolean> {
  for await (const rows of chunks) {
    let text = '';
    for (const r of rows) text += recordLine(kind, r.raw ?? JSON.stringify(record(r)));
    count(rows.length);
    await out.write(text);
    if (out.closed) return false;
  }
  return true;
}
