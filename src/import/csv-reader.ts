// Streaming CSV records with the physical line each one starts on, built on csv-parse.
//
// csv-parse's own recovery (`skip_records_with_error`) cannot get past an unbalanced quote:
// the quoted value swallows every following line up to the end of the file. So the first
// error of a parser ends that parser: the record it was in is reported as malformed by the
// line it starts on, and a fresh parser resumes on the next line. `max_record_size` makes
// an unclosed quote show up after at most that many bytes, which also bounds what is kept.
//
// Line numbers are counted here from the bytes (csv-parse counts a CRLF inside a quoted
// value twice). A line break is CRLF, LF or a lone CR, in any mix.
import { Parser, type CsvError } from 'csv-parse';

export interface CsvRecord {
  kind: 'record';
  /** The line the record starts on (1-based). */
  line: number;
  fields: string[];
}

export interface CsvMalformed {
  kind: 'malformed';
  line: number;
  reason: string;
  /** The start of the offending line, for the report (at most EXCERPT_CHARS). */
  text: string;
}

export type CsvEvent = CsvRecord | CsvMalformed;

export interface CsvReaderOptions {
  delimiter: string;
  /** A record longer than this is malformed (an unclosed quote, most likely). */
  maxRecordBytes?: number;
  /** Where the first byte given to push() is in the input (after a BOM, say). */
  startOffset?: number;
}

export const MAX_RECORD_BYTES = 1024 * 1024;
const EXCERPT_CHARS = 200;
const CR = 0x0d;
const LF = 0x0a;
const EMPTY = Buffer.alloc(0);

const REASONS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted value is never closed (unbalanced ")',
  CSV_MAX_RECORD_SIZE: 'the row runs on for more than 1 MiB (an unbalanced " opens a value that never ends)',
  CSV_INVALID_CLOSING_QUOTE: 'a " inside a quoted value must be doubled ("")',
  INVALID_OPENING_QUOTE: 'a " inside a value that is not quoted (quote the value and double its quotes: "Jo ""JJ"" Doe")',
};

/**
 * Feed it bytes with push() and finish with end(); each returns the events that became
 * known. Nothing is kept beyond the record in progress (bounded by maxRecordBytes).
 */
export class CsvRecordReader {
  readonly #opts: Required<Omit<CsvReaderOptions, 'startOffset'>>;
  #parser!: Parser;
  /** Bumped per parser, so a discarded parser's late callbacks are ignored. */
  #generation = 0;
  /** The first error of the current parser. */
  #error: CsvError | Error | undefined;
  /** Input offset of the current parser's first byte (csv-parse counts from there). */
  #base: number;
  /** The input from #bufStart on that no event accounts for yet. */
  #buf: Buffer = EMPTY;
  /** Input offset of #buf[0]; always the start of a line. */
  #bufStart: number;
  /** The number of the line that starts at #bufStart. */
  #line = 1;
  /** Dropping the rest of a malformed line that did not fit in what was read so far. */
  #skipping = false;
  /** The last byte dropped was a CR: a LF right after it belongs to the same line break. */
  #dropLF = false;
  #out: CsvEvent[] = [];

  constructor(opts: CsvReaderOptions) {
    this.#opts = { delimiter: opts.delimiter, maxRecordBytes: opts.maxRecordBytes ?? MAX_RECORD_BYTES };
    this.#base = this.#bufStart = opts.startOffset ?? 0;
    this.#startParser(this.#base);
  }

  /** Input bytes fully read into events (for progress). */
  get position(): number {
    return this.#bufStart;
  }

  push(chunk: Buffer): CsvEvent[] {
    let data = chunk;
    if (this.#dropLF && data.length > 0) {
      this.#dropLF = false;
      if (data[0] === LF) {
        data = data.subarray(1);
        this.#bufStart++;
      }
    }
    if (this.#skipping) {
      data = this.#skipRestOfLine(data);
      if (this.#skipping) return this.#take();
    }
    if (data.length === 0) return this.#take();
    this.#buf = this.#buf.length ? Buffer.concat([this.#buf, data]) : data;
    this.#parser.write(data);
    this.#resync(false);
    return this.#take();
  }

  async end(): Promise<CsvEvent[]> {
    if (!this.#skipping) {
      for (;;) {
        const parser = this.#parser;
        await new Promise<void>((resolve) => parser.end(() => resolve()));
        if (!this.#error) break;
        this.#resync(true);
      }
    }
    this.#parser.destroy();
    this.#bufStart += this.#buf.length;
    this.#buf = EMPTY;
    return this.#take();
  }

  #take(): CsvEvent[] {
    const out = this.#out;
    this.#out = [];
    return out;
  }

  #startParser(base: number): void {
    this.#parser?.destroy();
    const generation = ++this.#generation;
    const current = () => generation === this.#generation;
    this.#base = base;
    this.#error = undefined;
    this.#parser = new Parser({
      delimiter: this.#opts.delimiter,
      record_delimiter: ['\r\n', '\n', '\r'],
      skip_empty_lines: true,
      relax_column_count: true,
      skip_records_with_error: true,
      max_record_size: this.#opts.maxRecordBytes,
      bom: false,
      on_record: (fields: string[], info) => {
        if (current() && !this.#error) this.#onRecord(fields, info.bytes);
        return null; // collected here, never buffered in the stream
      },
      on_skip: (err) => {
        if (current()) this.#error ??= err ?? new Error('malformed CSV');
        return undefined;
      },
    });
    this.#parser.on('error', (err) => {
      if (current()) this.#error ??= err;
    });
  }

  /** A record ends `bytes` after the parser's start: blank lines, the record, its line break. */
  #onRecord(fields: string[], bytes: number): void {
    const length = this.#base + bytes - this.#bufStart;
    const segment = this.#buf.subarray(0, length);
    const blank = leadingBreaks(segment);
    const line = this.#line + blank.count;
    this.#line += countBreaks(segment);
    this.#bufStart += length;
    this.#buf = this.#buf.subarray(length);
    this.#out.push({ kind: 'record', line, fields });
  }

  /**
   * After a parser error: the record in progress starts after the blank lines at the head
   * of #buf. It is reported, and a new parser takes over on the line after its first line.
   */
  #resync(atEnd: boolean): void {
    while (this.#error) {
      const err = this.#error;
      const blank = leadingBreaks(this.#buf);
      const line = this.#line + blank.count;
      const lineEnd = findBreak(this.#buf, blank.end);
      const text = this.#buf.subarray(blank.end, lineEnd ? lineEnd.at : this.#buf.length);
      this.#out.push({ kind: 'malformed', line, reason: describe(err), text: excerpt(text) });
      if (!lineEnd) {
        // the rest of the line is not read yet (or the input ends inside it)
        this.#bufStart += this.#buf.length;
        this.#buf = EMPTY;
        this.#line = line;
        this.#skipping = !atEnd;
        this.#startParser(this.#bufStart);
        return;
      }
      if (lineEnd.trailingCR && !atEnd) this.#dropLF = true;
      this.#line = line + 1;
      this.#bufStart += lineEnd.next;
      this.#buf = this.#buf.subarray(lineEnd.next);
      this.#startParser(this.#bufStart);
      if (this.#buf.length > 0) this.#parser.write(this.#buf);
      if (atEnd) return; // end() finishes the new parser and comes back if it fails too
    }
  }

  /** Drops bytes up to and including the next line break; returns what follows it. */
  #skipRestOfLine(data: Buffer): Buffer {
    const lineEnd = findBreak(data, 0);
    if (!lineEnd) {
      this.#bufStart += data.length;
      return EMPTY;
    }
    this.#skipping = false;
    if (lineEnd.trailingCR) this.#dropLF = true;
    this.#line++;
    this.#bufStart += lineEnd.next;
    this.#startParser(this.#bufStart);
    return data.subarray(lineEnd.next);
  }
}

function describe(err: CsvError | Error): string {
  const code = (err as { code?: string }).code;
  return (code && REASONS[code]) ?? `malformed CSV: ${err.message}`;
}

function excerpt(bytes: Buffer): string {
  const text = bytes.subarray(0, EXCERPT_CHARS * 4).toString('utf8');
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}

/** The blank lines at the start of `buf`: how many, and where the first non-blank line starts. */
function leadingBreaks(buf: Buffer): { count: number; end: number } {
  let i = 0;
  let count = 0;
  while (i < buf.length) {
    if (buf[i] === LF) i++;
    else if (buf[i] === CR) i += buf[i + 1] === LF ? 2 : 1;
    else break;
    count++;
  }
  return { count, end: i };
}

/** Line breaks in `buf`: every LF, and every CR not followed by a LF. */
function countBreaks(buf: Buffer): number {
  let n = 0;
  for (let i = buf.indexOf(LF); i !== -1; i = buf.indexOf(LF, i + 1)) n++;
  for (let i = buf.indexOf(CR); i !== -1; i = buf.indexOf(CR, i + 1)) if (buf[i + 1] !== LF) n++;
  return n;
}

/**
 * The first line break at or after `from`: where it is and where the next line starts.
 * A CR as the very last byte counts as a break; `trailingCR` says a LF may still follow.
 */
function findBreak(buf: Buffer, from: number): { at: number; next: number; trailingCR: boolean } | undefined {
  const lf = buf.indexOf(LF, from);
  const crSearchEnd = lf === -1 ? buf.length : lf;
  const cr = buf.subarray(0, crSearchEnd).indexOf(CR, from);
  if (cr !== -1) {
    if (buf[cr + 1] === LF) return { at: cr, next: cr + 2, trailingCR: false };
    return { at: cr, next: cr + 1, trailingCR: cr + 1 === buf.length };
  }
  if (lf !== -1) return { at: lf, next: lf + 1, trailingCR: false };
  return undefined;
}
