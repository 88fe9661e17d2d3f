import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { SnapshotBackend } from '../storage/snapshot-backend.js';
import { RECORD_KINDS, type RecordKind, type SnapshotCounts } from './format.js';

const PLURAL: Record<RecordKind, keyof SnapshotCounts> = { chamber: 'chambers', member: 'members', event: 'events' };

/** The ids a database holds, by kind. */
export async function heldIds(db: SnapshotBackend): Promise<Record<keyof SnapshotCounts, Set<string>>> {
  return db.read(async (tables) => {
    const held = { chambers: new Set<string>(), members: new Set<string>(), events: new Set<string>() };
    for await (const rows of tables.chambers()) for (const r of rows) held.chambers.add(r.id);
    for await (const rows of tables.members()) for (const r of rows) held.members.add(r.id);
    for await (const rows of tables.events()) for (const r of rows) held.events.add(r.id);
    return held;
  });
}

/**
 * What `snapshot import --replace` would lose: the records `held` that the snapshot `file`
 * does not hold (by id). The file is only read for its ids; a line that is not a record is
 * left to the import, which refuses it with the line's number.
 */
export async function lostByReplacing(held: Record<keyof SnapshotCounts, Set<string>>, file: string): Promise<SnapshotCounts> {
  const inFile = { chambers: new Set<string>(), members: new Set<string>(), events: new Set<string>() };
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    for (const kind of RECORD_KINDS) {
      const id = (value as Record<string, { id?: unknown } | undefined>)?.[kind]?.id;
      if (typeof id === 'string') inFile[PLURAL[kind]].add(id);
    }
  }
  const lost = (k: keyof SnapshotCounts) => [...held[k]].filter((id) => !inFile[k].has(id)).length;
  return { chambers: lost('chambers'), members: lost('members'), events: lost('events') };
}
