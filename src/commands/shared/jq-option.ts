import { Writable } from 'node:stream';
import type { Command } from 'commander';
import type { CliContext, OutStream } from '../../core/context.js';
import { usageError } from '../../core/exit-codes.js';

/**
 * `--jq EXPR` on a command that prints JSON, as gh's: it implies `--json`, and the filter is
 * run on exactly the text `--json` (or `--json FIELDS`) prints, the whole list with `--all`.
 * While the command runs, its stdout is a buffer; when it is done, the filter reads the
 * buffer and writes its results to the real stdout (output/jq-filter.ts, loaded only then).
 * A command that fails prints nothing on stdout.
 */
export function addJqOption(cmd: Command, ctx: CliContext): Command {
  return cmd
    .option('--jq <expression>', 'filter the JSON with a jq expression: one result per line, strings raw (implies --json)')
    .hook('preAction', (_self, action) => startJq(action, ctx))
    .hook('postAction', (_self, action) => finishJq(action, ctx));
}

interface Capture {
  filter: string;
  stdout: OutStream;
  chunks: Buffer[];
}

/** The command runs of this context whose stdout is being kept for --jq. */
const CAPTURES = new WeakMap<CliContext, Capture>();

function startJq(cmd: Command, ctx: CliContext): void {
  const { jq, format, include } = cmd.opts<{ jq?: string; format?: string; include?: unknown }>();
  if (jq === undefined) return;
  if (format !== undefined && format !== 'json') {
    const other = format === 'table' ? 'a table' : format.toUpperCase();
    throw usageError(`--jq filters the JSON output, and --format ${format} asks for ${other} instead; give one (--jq implies --json)`);
  }
  if (cmd.name() === 'api' && include === true) {
    throw usageError('--jq filters the JSON body, and --include adds the status line and headers, which are not JSON; give one');
  }
  let root = cmd;
  while (root.parent) root = root.parent;
  root.setOptionValue('json', true);
  const capture: Capture = { filter: jq, stdout: ctx.stdout, chunks: [] };
  CAPTURES.set(ctx, capture);
  ctx.stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      capture.chunks.push(chunk);
      done();
    },
  });
}

async function finishJq(_cmd: Command, ctx: CliContext): Promise<void> {
  const capture = endJqCapture(ctx);
  if (!capture) return;
  const { writeJqResults } = await import('../../output/jq-filter.js');
  await writeJqResults(capture.filter, Buffer.concat(capture.chunks).toString('utf8'), ctx.stdout, ctx.stderr);
}

/**
 * Gives the context its stdout back; src/cli/program.ts calls it too when a command failed,
 * whose kept output is then dropped.
 */
export function endJqCapture(ctx: CliContext): Capture | undefined {
  const capture = CAPTURES.get(ctx);
  if (capture) {
    ctx.stdout = capture.stdout;
    CAPTURES.delete(ctx);
  }
  return capture;
}
