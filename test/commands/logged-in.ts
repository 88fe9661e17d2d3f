// For the end-to-end tests of the resource commands: a temporary config directory logged in
// to a real test server (test/helpers/server.ts), and a runner for the built binary in it.
import { expect } from 'vitest';
import { makeTempDir, removeTempDir, runCli, type RunResult } from '../helpers/cli.js';
import type { TestServer } from '../helpers/server.js';

export interface LoggedIn {
  dir: string;
  /** Runs `chamberctl ...args` with this config directory (stdin closed, no TTY). */
  run(args: string[], env?: Record<string, string | undefined>): Promise<RunResult>;
  /** Runs and expects exit 0 and a JSON document on stdout. */
  json<T = any>(args: string[]): Promise<T>; // eslint-disable-line @typescript-eslint/no-explicit-any
  cleanup(): Promise<void>;
}

export async function loggedIn(
  server: Pick<TestServer, 'baseUrl' | 'clientId' | 'clientSecret'>,
  opts: { apiVersion?: 'auto' | 'v1' | 'v2' } = {},
): Promise<LoggedIn> {
  const dir = await makeTempDir('chamberctl-e2e-');
  const run = (args: string[], env?: Record<string, string | undefined>) => runCli(args, { configDir: dir, env });
  const login = await run([
    'login',
    '--base-url',
    server.baseUrl,
    '--client-id',
    server.clientId,
    '--client-secret',
    server.clientSecret,
    ...(opts.apiVersion ? ['--api-version', opts.apiVersion] : []),
  ]);
  expect(login.stderr).toContain('logged in');
  expect(login.exitCode).toBe(0);
  return {
    dir,
    run,
    async json(args) {
      const r = await run([...args, '--json']);
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      return JSON.parse(r.stdout);
    },
    cleanup: () => removeTempDir(dir),
  };
}

/** The version segment of each request the server logged (`GET /v1/chambers 200 1.2ms`). */
export function versionsOf(lines: readonly string[], path: RegExp): string[] {
  return lines.flatMap((l) => {
    const m = /^\w+ \/(v[12])(\/\S*)/.exec(l);
    return m && path.test(m[2]!) ? [m[1]!] : [];
  });
}

/** The server's request log (pass `add` as startTestServer's `log`); `during` returns the lines `fn` caused. */
export function requestLog() {
  const lines: string[] = [];
  return {
    lines,
    add: (line: string) => void lines.push(line),
    async during(fn: () => Promise<unknown>): Promise<string[]> {
      const start = lines.length;
      await fn();
      return lines.slice(start);
    },
  };
}
