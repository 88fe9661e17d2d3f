// README's "A week of it" (team access) is a transcript: this runs its commands in bash, in
// order, with the built chamberctl on PATH, and compares what they print with what the README
// shows, times, ids and the operator's user@host aside. A change of behaviour fails here
// instead of leaving the README stale.
import { readFileSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, makeTempDir, removeTempDir } from '../helpers/cli.js';

const README = fileURLToPath(new URL('../../README.md', import.meta.url));
const MARKER = '<!-- readme-week:';
const PORT_IN_README = '8080';

interface Step {
  command: string;
  output: string[];
}

/** The ```console block after the marker: each `$ ` line a command, the lines after it its output. */
function transcript(): Step[] {
  const text = readFileSync(README, 'utf8');
  const at = text.indexOf(MARKER);
  if (at < 0) throw new Error(`README.md has no ${MARKER} block`);
  const open = text.indexOf('```console\n', at);
  const close = text.indexOf('\n```', open + 1);
  const steps: Step[] = [];
  for (const line of text.slice(open + '```console\n'.length, close).split('\n')) {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2), output: [] });
    else steps.at(-1)!.output.push(line);
  }
  return steps;
}

/** What differs from run to run: times, new ids, who runs it where. */
function masked(line: string): string {
  return line
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, '<time>')
    .replace(/mb_[A-Za-z0-9]{16}/g, 'mb_<id>')
    .replace(/"cl[A-Za-z0-9]{14}"/g, '"cl<id>"')
    .replace(/"operator":"[^"]+"/g, '"operator":"<user@host>"');
}

async function freePort(): Promise<string> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = String((s.address() as { port: number }).port);
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir('chamberctl-readme-week-');
});
afterAll(() => removeTempDir(dir));

describe("README's week of team access", () => {
  it('prints what the README shows, command by command', async () => {
    const steps = transcript();
    expect(steps.length).toBeGreaterThan(10);
    const port = await freePort();
    const bin = join(dir, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'chamberctl'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    await chmod(join(bin, 'chamberctl'), 0o755);
    // each step prints its own `$ ` line, then runs (a trailing comment ends at the newline)
    const script = [
      'set -e',
      "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT",
      ...steps.flatMap(({ command }) => {
        const run = command.replaceAll(PORT_IN_README, port);
        return [`printf '%s\\n' '$ ${command.replaceAll("'", "'\\''")}'`, `{ ${run}\n} 2>&1`];
      }),
    ].join('\n');
    const r = await execa('bash', ['-c', script], {
      cwd: dir,
      env: { ...cleanEnv(), HOME: dir, PATH: `${bin}:${process.env.PATH}`, CHAMBERCTL_CONFIG_DIR: join(dir, 'config'), CHAMBERCTL_DATA_DIR: join(dir, 'data') },
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    });
    const actual = r.stdout.replaceAll(port, PORT_IN_README).split('\n').map(masked);
    const expected = steps.flatMap((s) => [`$ ${s.command}`, ...s.output]).map(masked);
    expect(actual.join('\n'), r.stderr).toBe(expected.join('\n'));
    expect(r.exitCode, r.stderr).toBe(0);
  });
});
