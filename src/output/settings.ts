import type { OutStream } from '../core/context.js';
import { usageError } from '../core/exit-codes.js';

/**
 * How a command prints, decided once from the streams, the environment and the flags:
 * - `json`  with --json: exactly the JSON of docs/manual/help-output.md on stdout only;
 * - `table` when stdout is a terminal: aligned columns fitted to its width;
 * - `tsv`   otherwise (a pipe or a file): tab-separated rows, no header, like gh;
 * - `csv`   with --format csv (lists): a header and RFC 4180 rows.
 * `--format json|table|tsv|csv` chooses any of them; `--json` is `--format json`.
 * Colour is decided per stream, since stdout may be piped while stderr is a terminal.
 */
export type OutputMode = 'json' | 'table' | 'tsv' | 'csv';
export const OUTPUT_FORMATS = ['table', 'tsv', 'json', 'csv'] as const;

export interface OutputSettings {
  mode: OutputMode;
  /** chalk level for stdout (0: no colour). */
  stdoutColor: ColorLevel;
  /** chalk level for stderr (footers, spinner, hints). */
  stderrColor: ColorLevel;
  /** Columns available on stdout (tables are fitted to it). */
  width: number;
  /** Is stderr a terminal? Footers and the spinner appear only then. */
  stderrIsTTY: boolean;
  /** JSON is indented on a terminal and one item per line when piped. */
  prettyJson: boolean;
  /** `--json id,name`: each object with only these fields, in this order (absent ones null). */
  fields?: string[];
  /** `--format csv --raw`: values exactly as stored, no `'` before a would-be formula. */
  rawCsv?: boolean;
  /** Is stdout a terminal? TSV and CSV shown there have their control characters made inert. */
  stdoutIsTTY?: boolean;
}

/** An object with only `fields` (an absent one as null), as gh's `--json FIELDS` prints it. */
export function pickFields(item: unknown, fields: readonly string[] | undefined): unknown {
  if (!fields || item === null || typeof item !== 'object') return item;
  const o = item as Record<string, unknown>;
  return Object.fromEntries(fields.map((f) => [f, o[f] ?? null]));
}

export type ColorLevel = 0 | 1 | 2 | 3;

const DEFAULT_WIDTH = 80;

type TTYish = OutStream & { getColorDepth?: (env?: Record<string, string | undefined>) => number };

/**
 * Colour only on a terminal, and never with a non-empty NO_COLOR (https://no-color.org),
 * --no-color, or TERM=dumb. chalk would look at process.stdout and FORCE_COLOR instead, so
 * the decision is made here and handed to `new Chalk({ level })`.
 */
export function colorLevel(stream: OutStream, env: Record<string, string | undefined>, colorFlag: boolean): ColorLevel {
  if (!stream.isTTY || !colorFlag) return 0;
  if (env.NO_COLOR) return 0;
  if (env.TERM === 'dumb') return 0;
  const depth = (stream as TTYish).getColorDepth?.(env) ?? 4;
  if (depth >= 24) return 3;
  if (depth >= 8) return 2;
  return depth >= 4 ? 1 : 0;
}

export function outputSettings(
  globals: { json?: boolean; color?: boolean; format?: OutputMode; wide?: boolean; jsonFields?: string[]; raw?: boolean },
  ctx: { stdout: OutStream; stderr: OutStream; env: Record<string, string | undefined> },
): OutputSettings {
  const colorFlag = globals.color !== false;
  const stdoutIsTTY = Boolean(ctx.stdout.isTTY);
  if ((globals.json || globals.jsonFields) && globals.format && globals.format !== 'json') {
    throw usageError(`--json and --format ${globals.format} ask for two outputs; give one (--json is --format json)`);
  }
  const mode = globals.json || globals.jsonFields ? 'json' : (globals.format ?? (stdoutIsTTY ? 'table' : 'tsv'));
  if (globals.raw && mode !== 'csv') throw usageError(`--raw goes with --format csv only (this output is ${mode})`);
  return {
    mode,
    stdoutColor: colorLevel(ctx.stdout, ctx.env, colorFlag),
    stderrColor: colorLevel(ctx.stderr, ctx.env, colorFlag),
    // --wide: every column, nothing cut (the terminal wraps), as kubectl's -o wide
    width: globals.wide ? Number.POSITIVE_INFINITY : terminalWidth(ctx.stdout, ctx.env),
    stderrIsTTY: Boolean(ctx.stderr.isTTY),
    prettyJson: stdoutIsTTY,
    ...(globals.jsonFields ? { fields: globals.jsonFields } : {}),
    ...(globals.raw ? { rawCsv: true } : {}),
    ...(stdoutIsTTY ? { stdoutIsTTY } : {}),
  };
}

function terminalWidth(stream: OutStream, env: Record<string, string | undefined>): number {
  if (stream.columns && stream.columns > 0) return stream.columns;
  const fromEnv = Number(env.COLUMNS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_WIDTH;
}
