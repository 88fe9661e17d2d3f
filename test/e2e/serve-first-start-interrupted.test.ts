// Issue 43, item 2: Ctrl-C (or SIGTERM) at any moment of the very first `serve` must not lock
// the newcomer out. The first start is timed once (spawn to its URL on stdout); ten moments
// spread over that time are derived from it; at each, a fresh first start is stopped by SIGINT
// and by SIGTERM, and then a plain `serve` (no --client-id, no step by hand) must start and
// `chambers list` beside it must work.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';
import { spawnServe, startServeProcess } from '../helpers/serve-process.js';

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir('chamberctl-first-start-');
});
afterAll(() => removeTempDir(dir));

/** A newcomer's machine: its own config and data directories, nothing in them yet. */
const newcomer = (name: string) => ({ CHAMBERCTL_CONFIG_DIR: join(dir, name, 'config'), CHAMBERCTL_DATA_DIR: join(dir, name, 'data') });
const MOMENTS = 10;

/** Waits for serve's log line about its profile (written once it listens). */
async function profileSaid(serve: { output(): { stderr: string } }): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!/profile \\"local\\" (points here|has no credentials|belongs)|not a client of this database/.test(serve.output().stderr)) {
    if (Date.now() > deadline) throw new Error(`serve said nothing about its profile:\n${serve.output().stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('serve interrupted during its very first start', () => {
  it('at ten moments spread over the first start, by SIGINT and by SIGTERM: the next plain serve and chambers list work', async () => {
    const baselineEnv = newcomer('baseline');
    const t0 = performance.now();
    const baseline = await startServeProcess(['--port', '0'], baselineEnv);
    const firstStartMs = performance.now() - t0;
    expect((await baseline.stop('SIGTERM')).exitCode).toBe(0);

    const failures: string[] = [];
    for (let k = 1; k <= MOMENTS; k++) {
      const at = Math.round((firstStartMs * k) / MOMENTS);
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        const env = newcomer(`${signal}-${k}`);
        const first = spawnServe(['--port', '0'], env);
        const timer = setTimeout(() => first.proc.kill(signal), at);
        await first.proc;
        clearTimeout(timer);
        const what = `${signal} at ${at} ms of a ${Math.round(firstStartMs)} ms first start`;

        const next = await startServeProcess(['--port', '0', '--quiet'], env);
        await profileSaid(next); // as a person opens another terminal once serve has said where its profile points
        const list = await runCli(['chambers', 'list'], { configDir: env.CHAMBERCTL_CONFIG_DIR });
        const stopped = await next.stop('SIGTERM');
        if (list.exitCode !== 0) failures.push(`${what}: chambers list exit ${list.exitCode}: ${list.stderr.trim()}`);
        if (/no credentials|not a client of this database/.test(stopped.stderr)) failures.push(`${what}: the next serve warned: ${stopped.stderr}`);
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
  }, 400_000);
});
