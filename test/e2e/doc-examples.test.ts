// The shell examples of README.md, docs/guides/ and docs/operations/ run here, against the
// built chamberctl and a real `serve` (CONTRIBUTING.md, "Examples that run"): every ```console
// block marked `<!-- example: NAME -->` is a transcript whose commands run in bash, in order,
// and what each prints (stdout and stderr, as a terminal shows both) must be what the page
// shows, times, new ids, secrets, durations and ports aside. A change of behaviour fails here
// instead of leaving the docs stale.
//
// The blocks of one page with one NAME are one session: one bash process, a fresh HOME (so
// the config, the data and `~` are the session's own) as the working directory, `chamberctl`
// on PATH as README says to put it there (the checkout's bin/, with the node the reader has
// first on PATH: the machine's own, even where the tests run on the pinned LTS because it is
// older, scripts/with-node.sh), and, unless the marker says `(no server)`, a `chamberctl serve` with its demo data
// started before the first block as a reader starts it (its profile `local` the current one),
// on a free port that the page shows as 8080, its database the default one (SQLite, in the
// session's data directory, as the pages show it). So this file runs in the SQLite pass only
// (vitest.config.ts): the pages show SQLite paths, and what they show holds on both backends
// through the suites that run twice.
import { hostname, userInfo } from 'node:os';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, makeTempDir, removeTempDir } from '../helpers/cli.js';
import { examplePages, literalIds, mapPorts, Masker, pageBlocks, portsIn, type ConsoleBlock } from '../helpers/doc-examples.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER_PORT = '8080';
/** The maker of client changes as the pages show it; the runs' own user@host is shown so. */
const SHOWN_OPERATOR = 'ops@build-7';

function operator(): string {
  let user: string;
  try {
    user = userInfo().username;
  } catch {
    user = process.env.USER || process.env.LOGNAME || `uid ${process.getuid?.() ?? '?'}`;
  }
  return `${user}@${hostname()}`;
}

async function freePort(): Promise<string> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = String((s.address() as { port: number }).port);
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

const sessions = examplePages(ROOT).flatMap((page) => {
  const bySession = new Map<string, ConsoleBlock[]>();
  for (const block of pageBlocks(ROOT, page)) {
    if (block.kind !== 'example') continue;
    const list = bySession.get(block.session!) ?? [];
    list.push(block);
    bySession.set(block.session!, list);
  }
  return [...bySession].map(([name, blocks]) => ({ page, name, blocks }));
});

let dir: string;
/** The PATH of README's reader: the checkout's bin/, then the PATH npm test was run with. */
const READER_PATH = [join(ROOT, 'bin'), process.env.WITH_NODE_READER_PATH ?? process.env.PATH].join(delimiter);
beforeAll(async () => {
  assertBuilt();
  dir = await makeTempDir('chamberctl-doc-examples-');
});
afterAll(() => removeTempDir(dir));

describe('the shell examples of the docs', () => {
  it('are there: README, the guides and the operations pages each have some', () => {
    const pages = new Set(sessions.map((s) => s.page));
    expect(pages).toContain('README.md');
    expect([...pages].filter((p) => p.startsWith('docs/guides/')).length).toBeGreaterThanOrEqual(5);
    expect([...pages].filter((p) => p.startsWith('docs/operations/')).length).toBeGreaterThanOrEqual(1);
  });

  for (const { page, name, blocks } of sessions) {
    const noServer = blocks[0]!.noServer === true;
    it(`${page}: ${name}, as shown`, { timeout: 180_000 }, async () => {
      const steps = blocks.flatMap((b) => b.steps);
      expect(steps.length).toBeGreaterThan(0);
      const home = join(dir, `${page.replace(/[/.]/g, '-')}-${name}`);
      await mkdir(home, { recursive: true });

      // the ports the page names, each on a free port of this run (8080: the test's serve)
      const ports = new Map<string, string>();
      for (const p of new Set([...(noServer ? [] : [SERVER_PORT]), ...portsIn(steps.map((s) => s.command))])) ports.set(p, await freePort());
      const back = new Map([...ports].map(([shown, real]) => [real, shown]));

      const env: Record<string, string> = { ...cleanEnv(), HOME: home, PATH: READER_PATH };
      for (const key of Object.keys(env)) if (/^(XDG_|COLUMNS$|LINES$|PG)/.test(key)) delete env[key];

      let server: ServeProcess | undefined;
      try {
        if (!noServer) {
          server = await startServeProcess(['--port', ports.get(SERVER_PORT)!, '--quiet'], env);
          await waitFor(() => /profile \\?"local\\?"/.test(server!.output().stderr), () => server!.output().stderr);
        }

        // one marker line before each command, then the command with stderr on stdout
        const script = [
          'set -e',
          "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT",
          ...steps.flatMap(({ command }, i) => [`printf '\\036%d\\036' ${i}`, `{ ${mapPorts(command, ports)}\n} 2>&1`]),
        ].join('\n');
        const r = await execa('bash', ['-c', script], { cwd: home, env, extendEnv: false, reject: false, stdin: 'ignore', timeout: 150_000 });

        const printed = new Map<number, string[]>();
        const parts = r.stdout.split(/\u001e(\d+)\u001e/);
        for (let i = 1; i < parts.length; i += 2) {
          const text = parts[i + 1]!.replace(/\n$/, '');
          printed.set(Number(parts[i]), text === '' ? [] : text.split('\n'));
        }
        // as a terminal shows it: a CRLF line end (CSV) is a line end
        const real = (line: string) =>
          line
            .replace(/\r$/, '')
            .replace(/((?:127\.0\.0\.1|localhost):|--port[= ])(\d{2,5})\b/g, (all, before: string, port: string) => (back.has(port) ? `${before}${back.get(port)}` : all))
            .replaceAll(home, '~')
            .replaceAll(operator(), SHOWN_OPERATOR);
        const literal = literalIds(steps.map((s) => s.command));
        const shown = new Masker(literal);
        const got = new Masker(literal);
        let at = 0;
        for (const block of blocks) {
          const expected = block.steps.flatMap((s) => [`$ ${s.command}`, ...s.output.map((l) => shown.line(l))]);
          const actual = block.steps.flatMap((s, i) => [`$ ${s.command}`, ...(printed.get(at + i) ?? ['(not run: the session ended before it)']).map((l) => got.line(real(l)))]);
          at += block.steps.length;
          expect(actual.join('\n'), `${page}:${block.line} (${name}) prints other than the page shows\n${r.stderr}`).toBe(expected.join('\n'));
        }
        expect(r.exitCode, `${page} (${name}): the session's last command failed\n${r.stderr}`).toBe(0);
      } finally {
        if (server) {
          const stopped = await server.stop();
          expect(stopped.exitCode, stopped.stderr).toBe(0);
        }
      }
    });
  }
});

async function waitFor(ready: () => boolean, what: () => string): Promise<void> {
  const until = Date.now() + 20_000;
  while (!ready()) {
    if (Date.now() > until) throw new Error(`serve did not save its profile:\n${what()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
