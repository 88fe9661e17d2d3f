import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { eventOf, memberOf, toChamber } from '../storage/rows.js';
import { endLine, HEADER_LINE, recordLine, type SnapshotCounts } from './format.js';
import type { SnapshotBackend } from './io.js';

/**
 * Writes the database as a snapshot (docs/snapshot-format.md) to `out`, a chunk of rows at a
 * time, waiting for 'drain' when `out` is full: memory stays flat however large the
 * directory. A record is its stored `raw` text when it has one, else built from the columns
 * in JavaScript (events with their stored status), so both backends write the same bytes.
 */
export async function exportSnapshot(backend: SnapshotBackend, out: Writable): Promise<SnapshotCounts> {
  return backend.read(async (tables) => {
    const counts: SnapshotCounts = { chambers: 0, members: 0, events: 0 };
    await write(out, `${HEADER_LINE}\n`);
    for await (const rows of tables.chambers()) {
      let text = '';
      for (const r of rows) text += recordLine('chamber', r.raw ?? JSON.stringify(toChamber(r)));
      counts.chambers += rows.length;
      await write(out, text);
    }
    for await (const rows of tables.members()) {
      let text = '';
      for (const r of rows) text += recordLine('member', r.raw ?? JSON.stringify(memberOf(r)));
      counts.members += rows.length;
      await write(out, text);
    }
    for await (const rows of tables.events()) {
      let text = '';
      for (const r of rows) text += recordLine('event', r.raw ?? JSON.stringify(eventOf(r)));
      counts.events += rows.length;
      await write(out, text);
    }
    await write(out, endLine(counts));
    return counts;
  });
}

async function write(out: Writable, text: string): Promise<void> {
  if (text && !out.write(text)) await once(out, 'drain'); // rejects if `out` fails
}
