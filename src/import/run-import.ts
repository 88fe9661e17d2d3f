// The import itself: read → check → send, with backpressure, and the counts for the summary.
//
// Reading waits for a free sending slot before it takes the next row, so at most
// `concurrency` rows are in flight and the parsed rows of one 16 KiB slice of input are
// waiting; memory stays flat however long the file is.
import type { CliContext } from '../core/context.js';
import { CliError, ExitCode, signalExitCode } from '../core/exit-codes.js';
import { CsvRecordReader, type CsvEvent, type CsvRecord } from './csv-reader.js';
import { EmailSet } from './email-set.js';
import { readHeader, type Header } from './header.js';
import type { ImportInput } from './input.js';
import { Limiter } from './limiter.js';
import { Progress, type ProgressMode } from './progress.js';
import type { ReportStatus, ReportWriter } from './report.js';
import { FatalSendError, type RowSender } from './sender.js';
import type { ImportSummary } from './summary.js';
import { checkRow, isBlankRow } from './validate.js';
import type { MemberCreate } from '../contract/index.js';

export interface ImportRequest {
  chamberId: string;
  delimiter: string;
  concurrency: number;
  dryRun: boolean;
}

export interface ImportDeps {
  input: ImportInput;
  /** Absent in a dry run. */
  sender?: Pick<RowSender, 'send'>;
  report?: ReportWriter;
  stderr: CliContext['stderr'];
  progressMode: ProgressMode;
  dim?: (text: string) => string;
  onSignal: CliContext['onSignal'];
  /** Milliseconds, for the elapsed time and the rate. */
  clock: () => number;
  /** A second Ctrl-C: quit at once. */
  hardExit: (code: number) => void;
  /** Problem rows printed on stderr before the rest go to the report only. */
  maxProblemLines?: number;
}

export interface ImportResult {
  summary: ImportSummary;
  /** What ended the import early, to report after the summary (exit code included). */
  fatal?: CliError;
  /** The signal that stopped it. */
  signal?: NodeJS.Signals;
}

/** Input is handed to the parser in slices of this size: how far reading runs ahead of sending. */
const SLICE_BYTES = 4 * 1024;
const MAX_PROBLEM_LINES = 50;

export async function importRows(req: ImportRequest, deps: ImportDeps): Promise<ImportResult> {
  const started = deps.clock();
  const counts = { rows: 0, done: 0, created: 0, skipped: 0, invalid: 0, duplicate: 0, failed: 0, valid: 0, lastLine: 0 };
  const reader = new CsvRecordReader({ delimiter: req.delimiter });
  const seen = new EmailSet();
  const limiter = new Limiter(req.concurrency);
  const failureLimit = Math.max(16, 2 * req.concurrency);
  const maxProblemLines = deps.maxProblemLines ?? MAX_PROBLEM_LINES;
  let header: Header | undefined;
  let fatal: CliError | undefined;
  let signal: NodeJS.Signals | undefined;
  let consecutiveFailures = 0;
  let problemLines = 0;

  const progress = new Progress({
    stream: deps.stderr,
    mode: deps.progressMode,
    ...(deps.dim ? { dim: deps.dim } : {}),
    snapshot: () => ({
      done: counts.done,
      created: counts.created,
      skipped: counts.skipped,
      problems: counts.invalid + counts.duplicate + counts.failed,
      dryRun: req.dryRun,
      bytes: reader.position + deps.input.bomLength,
      ...(deps.input.size === undefined ? {} : { totalBytes: deps.input.size }),
      elapsedMs: deps.clock() - started,
    }),
  });
  const stopped = () => fatal !== undefined || signal !== undefined;
  const stopWith = (error: CliError) => {
    fatal ??= error;
    deps.input.stop();
  };

  const removeSignal = deps.onSignal((sig) => {
    if (signal !== undefined) {
      deps.hardExit(signalExitCode(signal));
      return;
    }
    signal = sig;
    deps.input.stop();
    const inFlight = limiter.active;
    progress.log(
      `stopping: ${inFlight ? `waiting for ${inFlight} request${inFlight === 1 ? '' : 's'} in flight; ` : ''}press Ctrl-C again to quit at once`,
    );
  });

  const reportValues = (fields: readonly string[]) => header!.reportSource.map((i) => fields[i] ?? '');

  const problem = async (line: number, status: ReportStatus, reason: string, fields: readonly string[]) => {
    counts[status]++;
    counts.done++;
    if (problemLines < maxProblemLines) {
      progress.log(`line ${line} (${status}): ${reason}`);
    } else if (problemLines === maxProblemLines) {
      progress.log(
        deps.report
          ? `… more problem rows are listed only in the report ${deps.report.path}`
          : '… more problem rows are not shown; --report PATH lists every one',
      );
    }
    problemLines++;
    await deps.report?.add(reportValues(fields), line, status, reason);
  };

  const send = async (record: CsvRecord, body: MemberCreate) => {
    try {
      const outcome = await deps.sender!.send(body, record.line);
      switch (outcome.status) {
        case 'created':
        case 'skipped':
          counts[outcome.status]++;
          counts.done++;
          consecutiveFailures = 0;
          return;
        case 'invalid':
          consecutiveFailures = 0;
          await problem(record.line, 'invalid', outcome.reason, record.fields);
          return;
        case 'failed':
          await problem(record.line, 'failed', outcome.reason, record.fields);
          if (++consecutiveFailures >= failureLimit && !stopped()) {
            stopWith(
              new CliError(
                `stopped after ${consecutiveFailures} rows in a row failed (the last: ${outcome.reason}); ` +
                  'run the same command again when the server is back: rows already created are skipped',
                ExitCode.FAILURE,
              ),
            );
          }
      }
    } catch (err) {
      const error = err instanceof FatalSendError ? err.error : asCliError(err);
      stopWith(error);
      await problem(record.line, 'failed', error.message, record.fields).catch(() => undefined);
    }
  };

  const handle = async (event: CsvEvent) => {
    if (!header) {
      if (event.kind === 'malformed') {
        throw new CliError(`the header row (line ${event.line}) is malformed: ${event.reason}`, ExitCode.REJECTED);
      }
      if (isBlankRow(event.fields)) return;
      header = readHeader(event.fields, event.line, req.delimiter);
      if (header.ignored.length > 0) {
        const s = header.ignored.length > 1 ? 's' : '';
        progress.log(`warning: ignoring the column${s} ${header.ignored.map((c) => JSON.stringify(c)).join(', ')}`);
      }
      await deps.report?.writeHeader(header.reportColumns);
      return;
    }
    if (event.kind === 'malformed') {
      counts.rows++;
      counts.lastLine = event.line;
      await problem(event.line, 'invalid', `${event.reason}; the line reads: ${event.text}`, []);
      return;
    }
    if (isBlankRow(event.fields)) return;
    const checked = checkRow(event.fields, header);
    const earlier = checked.ok ? seen.add(checked.emailKey, event.line) : 0;
    if (checked.ok && !earlier && !req.dryRun) {
      await limiter.slot();
      if (stopped()) return; // not taken: running the same command again sends it
    }
    counts.rows++;
    counts.lastLine = event.line;
    if (!checked.ok) return problem(event.line, 'invalid', checked.reason, event.fields);
    if (earlier) return problem(event.line, 'duplicate', `the same e-mail as line ${earlier}`, event.fields);
    if (req.dryRun) {
      counts.valid++;
      counts.done++;
      return;
    }
    const { body } = checked;
    limiter.run(() => send(event, body));
  };

  progress.start();
  try {
    read: for await (const chunk of deps.input.chunks()) {
      for (let at = 0; at < chunk.length; at += SLICE_BYTES) {
        for (const event of reader.push(chunk.subarray(at, at + SLICE_BYTES))) {
          if (stopped()) break read;
          await handle(event);
        }
      }
    }
    if (!stopped()) {
      for (const event of await reader.end()) {
        if (stopped()) break;
        await handle(event);
      }
    }
  } catch (err) {
    // before the header, nothing was sent: the error is the whole answer
    if (!header) {
      await limiter.idle();
      progress.stop();
      removeSignal();
      throw err;
    }
    stopWith(asCliError(err));
  }
  await limiter.idle();
  progress.stop();
  removeSignal();

  if (!header && !stopped()) {
    const what = deps.input.name === '-' ? 'stdin' : deps.input.name;
    throw new CliError(
      `${what} has no header row; the first line must name the columns name, email, membership_type and optionally phone`,
      ExitCode.REJECTED,
    );
  }

  const elapsedMs = Math.max(0, deps.clock() - started);
  const summary: ImportSummary = {
    chamber_id: req.chamberId,
    file: deps.input.name,
    dry_run: req.dryRun,
    interrupted: stopped(),
    rows: counts.rows,
    created: counts.created,
    skipped: counts.skipped,
    invalid: counts.invalid,
    duplicate: counts.duplicate,
    failed: counts.failed,
    valid: counts.valid,
    last_line: counts.lastLine,
    elapsed_seconds: Math.round(elapsedMs) / 1000,
    rows_per_second: elapsedMs > 0 ? Math.round((counts.rows / elapsedMs) * 1000 * 10) / 10 : 0,
    report: deps.report?.path ?? null,
    ignored_columns: header?.ignored ?? [],
  };
  return { summary, ...(fatal ? { fatal } : {}), ...(signal ? { signal } : {}) };
}

function asCliError(err: unknown): CliError {
  if (err instanceof CliError) return err;
  const error = new CliError((err as Error)?.message ?? String(err), ExitCode.FAILURE);
  error.cause = err;
  return error;
}
