import type * as z from 'zod/mini';
import { Chamber, Event, Member } from '../contract/resources.js';

// The snapshot file (docs/snapshot-format.md): JSON Lines, UTF-8, every line ending in "\n".
//   {"format":"chamberctl-snapshot","version":1}
//   {"chamber":{…}} … ordered by id (byte order), then {"member":{…}} …, then {"event":{…}} …
//   {"end":{"chambers":N,"members":N,"events":N}}
// A file without the end line, or whose counts differ from its lines, is truncated or
// corrupt and refused.

export const SNAPSHOT_FORMAT = 'chamberctl-snapshot';
export const SNAPSHOT_VERSION = 1;
export const HEADER_LINE = `{"format":"${SNAPSHOT_FORMAT}","version":${SNAPSHOT_VERSION}}`;

export type RecordKind = 'chamber' | 'member' | 'event';
/** The kinds in the order a file holds them. */
export const RECORD_KINDS: readonly RecordKind[] = ['chamber', 'member', 'event'];

export interface SnapshotCounts {
  chambers: number;
  members: number;
  events: number;
}

/** A line as written: `record` is JSON text (the stored `raw`, or the record built from the columns). */
export const recordLine = (kind: RecordKind, record: string) => `{"${kind}":${record}}\n`;
export const endLine = (c: SnapshotCounts) => `{"end":{"chambers":${c.chambers},"members":${c.members},"events":${c.events}}}\n`;

/** A file's content refused: the message names the line (exit code 5). */
export class SnapshotError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
    this.name = 'SnapshotError';
  }
}

export type ParsedLine =
  | { kind: 'chamber'; record: Chamber }
  | { kind: 'member'; record: Member }
  | { kind: 'event'; record: Event }
  | { kind: 'end'; counts: SnapshotCounts };

const SCHEMAS = { chamber: Chamber, member: Member, event: Event } as const;

/** Checks the first line: exactly the header of the version this chamberctl reads. */
export function checkHeader(text: string | undefined): void {
  if (text === HEADER_LINE) return;
  if (text === undefined) throw new SnapshotError(1, 'the file is empty (not a chamberctl snapshot)');
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    v = undefined;
  }
  const h = v as { format?: unknown; version?: unknown } | undefined;
  if (h && typeof h === 'object' && h.format === SNAPSHOT_FORMAT && h.version !== SNAPSHOT_VERSION) {
    throw new SnapshotError(1, `snapshot version ${JSON.stringify(h.version)} is not supported (this chamberctl reads version ${SNAPSHOT_VERSION})`);
  }
  throw new SnapshotError(1, `not a chamberctl snapshot (the first line must be ${HEADER_LINE})`);
}

/**
 * One line after the header: JSON, an object with one key (`chamber`, `member`, `event` or
 * `end`), the record checked against the contract. The record returned is the object as
 * parsed, fields unknown to this project included (they are kept in `raw`).
 */
export function parseLine(text: string, line: number): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SnapshotError(line, text.trim() === '' ? 'empty line' : 'not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SnapshotError(line, 'not a JSON object');
  const keys = Object.keys(value);
  const kind = keys[0];
  if (keys.length !== 1 || (kind !== 'end' && !(kind! in SCHEMAS))) {
    throw new SnapshotError(line, `expected one of {"chamber":…}, {"member":…}, {"event":…}, {"end":…}, got keys ${keys.map((k) => JSON.stringify(k)).join(', ') || 'none'}`);
  }
  const body = (value as Record<string, unknown>)[kind!];
  if (kind === 'end') return { kind: 'end', counts: parseCounts(body, line) };
  const k = kind as RecordKind;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new SnapshotError(line, `${k}: must be an object`);
  const result = (SCHEMAS[k] as z.ZodMiniType).safeParse(body, { error: issueMessage });
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const path = issue.path.map(String).join('.');
    throw new SnapshotError(line, `${k}: ${path ? `${path} ` : ''}${issue.message}`);
  }
  return { kind: k, record: body } as ParsedLine;
}

function parseCounts(body: unknown, line: number): SnapshotCounts {
  const c = body as Record<string, unknown> | null;
  const ok = (n: unknown) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  if (typeof c !== 'object' || c === null || !ok(c.chambers) || !ok(c.members) || !ok(c.events)) {
    throw new SnapshotError(line, 'end: must be {"chambers":N,"members":N,"events":N}');
  }
  return { chambers: c.chambers as number, members: c.members as number, events: c.events as number };
}

/** Short messages in the project's style ("is required", "must be a string") for the resource schemas. */
function issueMessage(iss: z.core.$ZodRawIssue): string | undefined {
  if (iss.code === 'invalid_type') return iss.input === undefined ? 'is required' : `must be ${article(iss.expected)}`;
  if (iss.code === 'invalid_value') return `must be one of: ${iss.values.map(String).join(', ')}`;
  return undefined;
}

const article = (t: string) => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`);

/**
 * Byte order of the UTF-8 encodings (what SQLite's BINARY and PostgreSQL's "C" collation
 * sort by). JavaScript's `<` compares UTF-16 units, which agrees except around surrogates.
 */
export function compareIds(a: string, b: string): number {
  if (a === b) return 0;
  if (!/[\ud800-\uffff]/.test(a) && !/[\ud800-\uffff]/.test(b)) return a < b ? -1 : 1;
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
