// --report PATH: every row that was not created and needs the admin (invalid, duplicate in
// the file, failed), as CSV with the input's own columns plus line, status and reason, so
// the fixed report can be imported again as it is (import ignores those three columns).
// Skipped rows (already members) need nothing and are left out.
//
// The file holds personal data: it is created with mode 0600. It is written as rows come
// (with backpressure), never collected in memory; it starts with a UTF-8 BOM so that Excel,
// where such a file is usually fixed, reads it as UTF-8 (the import removes the BOM).
import { resolve } from 'node:path';
import { open, stat, unlink, type FileHandle } from 'node:fs/promises';
import type { WriteStream } from 'node:fs';
import { stringify } from 'csv-stringify/sync';
import { CliError, ExitCode, usageError } from '../core/exit-codes.js';
import { protectCell, unprotectCell } from '../output/csv-cells.js';

export type ReportStatus = 'invalid' | 'duplicate' | 'failed';

export const REPORT_FILE_MODE = 0o600;

export class ReportWriter {
  #header = false;
  #failure: Error | undefined;
  #rows = 0;

  private constructor(
    readonly path: string,
    private readonly stream: WriteStream,
    private readonly delimiter: string,
  ) {
    stream.on('error', (err) => (this.#failure ??= err));
  }

  /** Creates (or empties) the file, mode 0600, before anything is sent: a bad path fails early (exit 2). */
  static async create(path: string, opts: { delimiter: string; inputPath?: string }): Promise<ReportWriter> {
    if (opts.inputPath !== undefined && (await sameFile(path, opts.inputPath))) {
      throw usageError(`--report ${path} is the input file; choose another path`);
    }
    let handle: FileHandle;
    try {
      handle = await open(path, 'w', REPORT_FILE_MODE);
      await handle.chmod(REPORT_FILE_MODE); // an existing file keeps its mode on open
    } catch (err) {
      throw usageError(`cannot write the report ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    // the stream closes the handle when it ends
    const stream = handle.createWriteStream({ encoding: 'utf8' });
    return new ReportWriter(path, stream, opts.delimiter);
  }

  get rows(): number {
    return this.#rows;
  }

  async writeHeader(columns: readonly string[]): Promise<void> {
    this.#header = true;
    await this.#write(this.#csv([[...columns]], true));
  }

  /** One row: the input values of the report's columns, then line, status, reason. */
  async add(values: readonly string[], line: number, status: ReportStatus, reason: string): Promise<void> {
    if (!this.#header) throw new Error('report header not written');
    this.#rows++;
    await this.#write(this.#csv([[...values, String(line), status, reason]], false));
  }

  /** Closes the file; one that never got its header (the import stopped before) is removed. */
  async close(): Promise<void> {
    if (!this.stream.closed) {
      await new Promise<void>((done) => {
        this.stream.once('close', done);
        this.stream.end();
      });
    }
    if (!this.#header) await unlink(this.path).catch(() => undefined);
    if (this.#failure) throw reportError(this.path, this.#failure);
  }

  #csv(rows: string[][], bom: boolean): string {
    // a lone CR is a line break to the import, so values holding one are quoted too; a cell
    // that a spreadsheet would run as a formula gets a leading ' (output/csv-cells.ts)
    return stringify(rows.map((row) => row.map(reportCell)), { delimiter: this.delimiter, record_delimiter: 'unix', quoted_match: /\r/, bom });
  }

  async #write(text: string): Promise<void> {
    if (this.#failure) throw reportError(this.path, this.#failure);
    if (this.stream.write(text)) return;
    await new Promise<void>((done) => {
      const finish = () => {
        this.stream.off('drain', finish);
        this.stream.off('error', finish);
        done();
      };
      this.stream.on('drain', finish);
      this.stream.on('error', finish);
    });
    if (this.#failure) throw reportError(this.path, this.#failure);
  }
}

function reportError(path: string, err: Error): CliError {
  return new CliError(`writing the report ${path} failed: ${(err as NodeJS.ErrnoException).code ?? err.message}`, ExitCode.FAILURE);
}

async function sameFile(a: string, b: string): Promise<boolean> {
  if (b === '-') return false;
  if (resolve(a) === resolve(b)) return true;
  try {
    const [sa, sb] = await Promise.all([stat(a), stat(b)]);
    return sa.dev === sb.dev && sa.ino === sb.ino;
  } catch {
    return false; // the report does not exist yet
  }
}

/**
 * A cell of the report: the value the import took from the input cell (a `'` it took off
 * stays off), written with a `'` where a spreadsheet would run it. Importing the report
 * gives the import of the input cell: unprotect(protect(unprotect(c))) is unprotect(c).
 */
const reportCell = (cell: string) => protectCell(unprotectCell(cell));
