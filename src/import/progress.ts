// Progress on stderr, for a person:
// - `live` (stderr is a terminal, no --verbose): one status line, redrawn in place;
// - `periodic` (--verbose): a plain line every few seconds, which interleaves cleanly
//   with the HTTP log and reads well in a CI log;
// - `off`: nothing (stderr is not a terminal and no --verbose).
import type { OutStream } from '../core/context.js';
import { terminalLine } from '../core/terminal-text.js';

export type ProgressMode = 'live' | 'periodic' | 'off';

export interface ProgressSnapshot {
  /** Data rows whose outcome is known. */
  done: number;
  created: number;
  skipped: number;
  /** invalid + duplicate + failed */
  problems: number;
  dryRun: boolean;
  /** Input bytes read into rows, and the file size when known. */
  bytes: number;
  totalBytes?: number;
  elapsedMs: number;
}

export interface ProgressOptions {
  stream: OutStream;
  mode: ProgressMode;
  /** The import's figures; another task (`sync pull`) gives its own line as `render`. */
  snapshot?: () => ProgressSnapshot;
  render?: () => string;
  /** Prefix of the periodic lines (default `import`). */
  label?: string;
  /** Defaults: 200 ms live, 5 s periodic. */
  intervalMs?: number;
  dim?: (text: string) => string;
}

const CLEAR_LINE = '\r\u001b[2K';

export class Progress {
  #timer: NodeJS.Timeout | undefined;
  #shown = false;

  constructor(private readonly opts: ProgressOptions) {}

  start(): void {
    if (this.opts.mode === 'off') return;
    const every = this.opts.intervalMs ?? (this.opts.mode === 'live' ? 200 : 5_000);
    this.#timer = setInterval(() => this.#tick(), every);
    this.#timer.unref();
  }

  /** A line for the person (a problem row, a warning), printed above the live status. */
  log(line: string): void {
    if (this.#shown) this.opts.stream.write(CLEAR_LINE);
    // a problem row quotes the file and the server: shown inert (core/terminal-text.ts)
    this.opts.stream.write(`${terminalLine(line)}\n`);
    if (this.#shown) this.#draw();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    if (this.#shown) this.opts.stream.write(CLEAR_LINE);
    this.#shown = false;
  }

  #tick(): void {
    if (this.opts.mode === 'live') this.#draw();
    else this.opts.stream.write(`${this.opts.label ?? 'import'}: ${this.#text()}\n`);
  }

  #text(): string {
    return this.opts.render ? this.opts.render() : progressText(this.opts.snapshot!());
  }

  #draw(): void {
    const columns = this.opts.stream.columns;
    const width = columns && columns > 20 ? columns : 80;
    let text = this.#text();
    if (text.length > width - 1) text = text.slice(0, Math.max(0, width - 2)) + '…';
    this.opts.stream.write(`${CLEAR_LINE}${this.opts.dim ? this.opts.dim(text) : text}`);
    this.#shown = true;
  }
}

/** `12,345 rows, 4,321 rows/s, 37% of 12.3 MB: 12,000 created, 300 skipped, 45 problems` */
export function progressText(s: ProgressSnapshot): string {
  const rate = s.elapsedMs > 0 ? Math.round((s.done / s.elapsedMs) * 1000) : 0;
  const parts = [`${count(s.done)} rows`, `${count(rate)} rows/s`];
  if (s.totalBytes) {
    parts.push(`${Math.min(100, Math.floor((s.bytes / s.totalBytes) * 100))}% of ${megabytes(s.totalBytes)}`);
    // the time left at the pace so far, once there is a pace to go by
    if (s.bytes > 0 && s.bytes < s.totalBytes && s.elapsedMs >= 1000) parts.push(`ETA ${duration(((s.totalBytes - s.bytes) * s.elapsedMs) / s.bytes)}`);
  }
  const outcome = s.dryRun
    ? [`${count(s.done - s.problems)} valid`, problems(s.problems)]
    : [`${count(s.created)} created`, `${count(s.skipped)} skipped`, problems(s.problems)];
  return `${parts.join(', ')}: ${outcome.join(', ')}`;
}

const count = (n: number) => n.toLocaleString('en-US');
/** `42s`, `3m05s`, `1h02m` */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
const problems = (n: number) => `${count(n)} problem${n === 1 ? '' : 's'}`;
const megabytes = (bytes: number) => (bytes < 1e6 ? `${(bytes / 1e3).toFixed(1)} kB` : `${(bytes / 1e6).toFixed(1)} MB`);
