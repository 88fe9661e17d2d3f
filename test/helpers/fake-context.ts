import { PassThrough } from 'node:stream';
import type { CliContext } from '../../src/core/context.js';

export interface FakeContext extends CliContext {
  out(): string;
  err(): string;
}

/** A CliContext with captured streams, no TTY, and the given environment and clock. */
export function fakeContext(opts: { env?: Record<string, string | undefined>; now?: () => Date; stdin?: string } = {}): FakeContext {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += String(c)));
  stderr.on('data', (c) => (err += String(c)));
  if (opts.stdin !== undefined) stdin.end(opts.stdin);
  return {
    stdout,
    stderr,
    stdin,
    env: opts.env ?? {},
    now: opts.now ?? (() => new Date()),
    onSignal: () => () => undefined,
    out: () => out,
    err: () => err,
  };
}

/** Runs the CLI in-process with a fake context; the config directory given does not exist. */
export async function runInProcess(argv: string[], configDir: string) {
  const c = fakeContext({ env: { CHAMBERCTL_CONFIG_DIR: configDir } });
  const { run } = await import('../../src/cli/program.js');
  const code = await run(argv, c, '0.0.0-test');
  return { code, stdout: c.out(), stderr: c.err() };
}
