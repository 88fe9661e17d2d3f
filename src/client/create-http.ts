import { setFlagsFromString } from 'node:v8';
import type { CliContext } from '../cli/context.js';
import type { GlobalOptions } from './types.js';
import { HttpClient, type HttpClientOptions } from './http.js';

/**
 * undici parses HTTP with llhttp compiled to WebAssembly. V8 compiles it twice: a quick
 * baseline (Liftoff) and an optimised version on background threads, and node waits for
 * that background work before it exits: about 80-100 ms added to every short command. The
 * baseline code is plenty fast for a CLI's responses, so the optimised tier is turned off.
 * It must happen before the first request compiles llhttp, and after the modules are
 * loaded: changing a V8 flag makes node's cached compiled built-ins unusable, so any
 * built-in loaded afterwards compiles from scratch. Measured by bench/startup.ts.
 */
function baselineWasmOnly(): void {
  setFlagsFromString('--liftoff-only');
}

/** The HTTP client of one command: --verbose logs to stderr, the clock is the context's. */
export function httpClientFor(globals: Pick<GlobalOptions, 'verbose'>, ctx: CliContext, extra: HttpClientOptions = {}): HttpClient {
  baselineWasmOnly();
  return new HttpClient({
    clock: () => ctx.now().getTime(),
    ...(globals.verbose ? { log: (line: string) => void ctx.stderr.write(`${line}\n`) } : {}),
    ...extra,
  });
}
