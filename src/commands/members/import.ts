import type { CliContext, GlobalOptions } from '../../core/context.js';
import { signalExitCode, usageError } from '../../core/exit-codes.js';
import { chooseApiVersion } from '../../client/version.js';
import { openImportConnection } from '../../import/connection.js';
import { openInput } from '../../import/input.js';
import { tuneGcForImport } from '../../import/gc-tuning.js';
import { ReportWriter } from '../../import/report.js';
import { importRows, type ImportRequest } from '../../import/run-import.js';
import { RowSender } from '../../import/sender.js';
import { printSummary, summaryExitCode } from '../../import/summary.js';
import { createOutput } from '../../output/output.js';
import { terminalText } from '../../core/terminal-text.js';

export interface MembersImportOptions {
  dryRun?: boolean;
  concurrency?: string;
  report?: string;
  delimiter?: string;
}

export interface MembersImportRequest extends ImportRequest {
  file: string;
  reportPath?: string;
}

export const MAX_CONCURRENCY = 64;

/** Checks the arguments before anything is opened (exit 2). */
export function parseMembersImport(chamberId: string, file: string, opts: MembersImportOptions): MembersImportRequest {
  if (!chamberId.trim()) throw usageError('CHAMBER_ID must not be empty');
  if (!file) throw usageError('FILE must be a path, or - for stdin');
  const concurrency = opts.concurrency ?? '8';
  if (!/^\d+$/.test(concurrency) || Number(concurrency) < 1 || Number(concurrency) > MAX_CONCURRENCY) {
    throw usageError(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, not "${concurrency}"`);
  }
  if (opts.report === '') throw usageError('--report must be a file path');
  return {
    chamberId,
    file,
    delimiter: parseDelimiter(opts.delimiter ?? ','),
    concurrency: Number(concurrency),
    dryRun: Boolean(opts.dryRun),
    ...(opts.report === undefined ? {} : { reportPath: opts.report }),
  };
}

/** `,` by default; `;`, `|`, any single character but a quote or a line break; `tab` or `\t` for a tab. */
export function parseDelimiter(raw: string): string {
  if (raw === 'tab' || raw === '\\t' || raw === '\t') return '\t';
  if ([...raw].length !== 1 || raw === '"' || raw === '\r' || raw === '\n') {
    throw usageError(`--delimiter must be one character other than a quote or a line break (or tab), not ${JSON.stringify(raw)}`);
  }
  return raw;
}

/**
 * members import CHAMBER_ID FILE: local checks (file, options), then the profile (for a real
 * import, its client must hold the write scope) and the chamber (GET, also in a dry run),
 * then the report file, then the rows. The summary is printed even when the import stops
 * early; the error, if any, follows it.
 */
export async function runMembersImport(
  chamberId: string,
  file: string,
  opts: MembersImportOptions,
  globals: GlobalOptions,
  ctx: CliContext,
): Promise<void> {
  const req = parseMembersImport(chamberId, file, opts);
  const output = await createOutput(globals, ctx);
  const input = await openInput(req.file, ctx.stdin);
  try {
    const conn = openImportConnection(globals, ctx);
    try {
      chooseApiVersion(conn.apiVersion, ['members import'], { flag: globals.apiVersion !== undefined, profile: conn.profileName });
      // a dry run only reads; a real one is refused at once on a profile that may not write
      if (!req.dryRun) await conn.requireWrite('members import');
      await output.spin('Checking the chamber…', conn.api.getChamber('v2', req.chamberId, {}));
      const report = req.reportPath
        ? await ReportWriter.create(req.reportPath, { delimiter: req.delimiter, inputPath: req.file })
        : undefined;
      const log = globals.verbose ? (line: string) => void ctx.stderr.write(`${terminalText(line)}\n`) : undefined;
      if (req.file === '-' && ctx.stdin.isTTY) output.note('reading CSV from the terminal; end it with Ctrl-D');
      tuneGcForImport();
      let result;
      try {
        result = await importRows(req, {
          input,
          ...(req.dryRun
            ? {}
            : {
                sender: new RowSender({
                  http: conn.postHttp,
                  tokens: conn.tokens,
                  baseUrl: conn.baseUrl,
                  chamberId: req.chamberId,
                  ...(log ? { log } : {}),
                }),
              }),
          ...(report ? { report } : {}),
          stderr: ctx.stderr,
          progressMode: globals.verbose ? 'periodic' : ctx.stderr.isTTY ? 'live' : 'off',
          dim: output.err.dim,
          onSignal: ctx.onSignal,
          clock: () => ctx.now().getTime(),
          hardExit: (code) => process.exit(code),
        });
      } finally {
        await report?.close();
      }
      await printSummary(result.summary, output);
      if (result.fatal) throw result.fatal;
      if (result.signal) {
        ctx.stderr.write(
          `interrupted after line ${result.summary.last_line}: run the same command again to finish; rows already created are skipped\n`,
        );
        ctx.exitCode = signalExitCode(result.signal);
        return;
      }
      ctx.exitCode = summaryExitCode(result.summary);
    } finally {
      await conn.close();
    }
  } finally {
    await input.close();
  }
}
