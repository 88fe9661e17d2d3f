import { loadJq } from 'jq-wasm/inline';
import { CliError, ExitCode } from '../core/exit-codes.js';
import type { OutStream } from '../core/context.js';
import { Sink } from './sink.js';

/**
 * `--jq EXPR`: jq itself (jq 1.8, compiled to WebAssembly: the npm package jq-wasm, its
 * `inline` build, which carries the .wasm in the JavaScript so the bundle and the single
 * executable need no file beside them), run on the JSON text the command printed, as
 * `--json | jq -r -c EXPR` would: each result on its own line, strings raw, everything else
 * compact JSON, as gh's --jq. Loaded only when --jq is given. The engine was chosen by running
 * jq's own tests (scripts/jq-conformance, docs/performance.md).
 *
 * jq writes every result as compact JSON, one per line (a string's line breaks are escaped),
 * and a string is unquoted here: jq's -r would do the same, but jq-wasm trims what jq prints,
 * which would eat the blanks a first or last string begins or ends with.
 */
export async function writeJqResults(filter: string, json: string, stdout: OutStream, stderr: OutStream): Promise<void> {
  const jq = await loadJq();
  let result: { stdout: string; stderr: string; exitCode: number };
  try {
    result = jq.raw(json, filter, ['-c']);
  } catch (err) {
    // the WebAssembly machine itself stopped: its stack ends near 10,000 nested values
    throw new CliError(`--jq: jq stopped: ${err instanceof Error ? err.message : String(err)}`, ExitCode.FAILURE);
  }
  const { stdout: out, stderr: err, exitCode } = result;
  if (exitCode === JQ_COMPILE_ERROR) throw compileError(err);
  const lines = out === '' ? [] : out.split('\n');
  await new Sink(stdout).write(lines.map((line) => `${line.startsWith('"') ? (JSON.parse(line) as string) : line}\n`).join(''));
  if (exitCode !== 0) throw new CliError(`--jq: ${withoutJqPrefix(err) || `jq stopped with status ${exitCode}`}`, ExitCode.FAILURE);
  // debug and stderr write to stderr, as jq does
  if (err) stderr.write(`${err}\n`);
}

/** jq's exit status for a program that does not compile. */
const JQ_COMPILE_ERROR = 3;

/**
 * jq's message, its position and the program with a caret under the place:
 *   jq: error: syntax error, unexpected end of file at <top-level>, line 1, column 4:
 *       .a |
 *          ^
 *   jq: 1 compile error
 * becomes the usage error `--jq: syntax error, … line 1, column 4:` with the two lines below it.
 */
function compileError(stderr: string): CliError {
  const lines = stderr.split('\n').filter((l) => !/^jq: \d+ compile errors?$/.test(l));
  const [first = 'the filter does not compile', ...rest] = lines;
  return new CliError(`--jq: ${withoutJqPrefix(first)}`, ExitCode.USAGE, rest.map((l) => withoutJqPrefix(l).replace(/^ {4}/, '')));
}

/** `jq: error: ` and `jq: error (at /dev/stdin:0): ` say nothing the user needs. */
const withoutJqPrefix = (message: string) => message.replace(/^jq: error(?: \(at [^)]*\))?: /gm, '');
