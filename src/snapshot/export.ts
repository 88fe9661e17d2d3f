import type { Sink } from '../output/sink.js';
import { eventOf, memberOf, toChamber } from '../storage/rows.js';
import { endLine, HEADER_LINE, recordLine, type SnapshotCounts } from './format.js';
import type { SnapshotBackend } from '../storage/snapshot-backend.js';

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
    for await (const rows of tables.chambers()) {
      let text = '';
      for (const r of rows) text += recordLine('chamber', r.raw ?? JSON.stringify(toChamber(r)));
      counts.chambers += rows.length;
      await out.write(text);
      if (out.closed) return counts;
    }
    for await (const rows of tables.members()) {
      let text = '';
      for (const r of rows) text += recordLine('member', r.raw ?? JSON.stringify(memberOf(r)));
      counts.members += rows.length;
      await out.write(text);
      if (out.closed) return counts;
    }
    for await (const rows of tables.events()) {
      let text = '';
      for (const r of rows) text += recordLine('event', r.raw ?? JSON.stringify(eventOf(r)));
      counts.events += rows.length;
      await out.write(text);
      if (out.closed) return counts;
    }
    await out.write(endLine(counts));
    return counts;
  });
}
