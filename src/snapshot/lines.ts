import type { Readable } from 'node:stream';

/** The longest line a snapshot may hold, as the CSV reader's longest row (import/csv-reader.ts). */
export const MAX_LINE_BYTES = 1024 * 1024;

/** A line longer than MAX_LINE_BYTES: `line` is its number (1-based), found before it was all read. */
export class LineTooLong extends Error {
  constructor(readonly line: number) {
    super(`the line runs on for more than 1 MiB (a snapshot line is one record; this is not a snapshot, or it is damaged)`);
  }
}

/**
 * The lines of `input` (LF or CRLF), as readline gives them, but never holding more than
 * `max` bytes of one line: readline keeps a line of any length in memory, so one 200 MB
 * line cost 632 MB before its error. Lines are split on the byte 0x0A, which never occurs
 * inside a UTF-8 character, and decoded whole.
 */
export async function* cappedLines(input: Readable, max = MAX_LINE_BYTES): AsyncGenerator<string> {
  let parts: Buffer[] = [];
  let pending = 0;
  let line = 1;
  const take = (last: Buffer): string => {
    const bytes = parts.length === 0 ? last : Buffer.concat([...parts, last]);
    parts = [];
    pending = 0;
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
    return bytes.toString('utf8', 0, end);
  };
  for await (const chunk of input) {
    const buf: Buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    let start = 0;
    for (let nl = buf.indexOf(0x0a, start); nl !== -1; nl = buf.indexOf(0x0a, start)) {
      if (pending + nl - start > max) throw new LineTooLong(line);
      yield take(buf.subarray(start, nl));
      line++;
      start = nl + 1;
    }
    if (start < buf.length) {
      pending += buf.length - start;
      if (pending > max) throw new LineTooLong(line);
      parts.push(buf.subarray(start));
    }
  }
  if (pending > 0) yield take(Buffer.alloc(0));
}
