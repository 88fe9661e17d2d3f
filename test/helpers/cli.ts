// Runs the BUILT binary (bin/chamberctl.js → dist/cli.cjs; `npm run build` first) the way a
// script would: no TTY, its own config directory, and none of the caller's CHAMBERCTL_* or
// colour settings leaking in.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

export const BIN = fileURLToPath(new URL('../../bin/chamberctl.js', import.meta.url));

export interface RunOptions {
  /** Becomes CHAMBERCTL_CONFIG_DIR. */
  configDir: string;
  /** Extra environment, applied after the cleaning. */
  env?: Record<string, string | undefined>;
  /** Written to stdin; without it stdin is /dev/null (never a TTY, never blocking). */
  input?: string;
  /** Kill the process after this many ms (default 20 s). */
  timeout?: number;
}

export interface RunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * The parent environment minus NO_COLOR/FORCE_COLOR and every CHAMBERCTL_* variable, with
 * the V8 code cache in a directory of this test run, never the user's own (bin/load-bundle.js).
 */
export function cleanEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (key === 'NO_COLOR' || key === 'FORCE_COLOR' || key.startsWith('CHAMBERCTL_')) continue;
    out[key] = value;
  }
  out.CHAMBERCTL_CACHE_DIR = TEST_CODE_CACHE;
  return out;
}

/** Shared by the runs of one test run, as a user's shells share theirs (test/global-setup.ts removes it). */
export const TEST_CODE_CACHE = join(tmpdir(), `chamberctl-test-code-cache-${process.env.CHAMBERCTL_TEST_RUN ?? process.pid}`);

/** Throws a clear message when the bundle is missing (`npm run build` builds it; `npm test` does so first). */
export function assertBuilt(): void {
  if (!existsSync(fileURLToPath(new URL('../../dist/cli.cjs', import.meta.url)))) {
    throw new Error('dist/cli.cjs is missing: run `npm run build` before the end-to-end tests');
  }
}

export async function runCli(args: string[], opts: RunOptions): Promise<RunResult> {
  const env: Record<string, string | undefined> = { ...cleanEnv(), CHAMBERCTL_CONFIG_DIR: opts.configDir, ...opts.env };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  const result = await execa(process.execPath, [BIN, ...args], {
    env,
    extendEnv: false,
    reject: false,
    timeout: opts.timeout ?? 20_000,
    stripFinalNewline: false,
    ...(opts.input === undefined ? { stdin: 'ignore' as const } : { input: opts.input }),
  });
  if (result.timedOut) throw new Error(`chamberctl ${args.join(' ')} timed out\n${result.stderr}`);
  return { exitCode: result.exitCode ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** A fresh temporary directory (e.g. for CHAMBERCTL_CONFIG_DIR); remove it with `removeTempDir`. */
export async function makeTempDir(prefix = 'chamberctl-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function removeTempDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
