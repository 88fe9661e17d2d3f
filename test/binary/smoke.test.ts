// The single executable (npm run build:binary; this suite is `npm run test:binary`): what a
// user does with it on a machine where nothing is installed. The binary is copied into a
// folder of its own and run with an empty PATH, a HOME, TMPDIR and cache of its own; the
// same work as with `node bin/chamberctl.js`: --version, --help, the completion scripts,
// serve with login and chambers list, GET /docs, sync pull (its copy written by a worker
// thread), snapshot export. Nothing may be written outside the config and cache folders.
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../helpers/cli.js';

const BUILT = join(import.meta.dirname, '..', '..', 'dist', 'bin', 'chamberctl');
const ROOT = join(import.meta.dirname, '..', '..');

let dir: string;
let bin: string;
let env: Record<string, string>;

beforeAll(async () => {
  if (!existsSync(BUILT)) throw new Error('dist/bin/chamberctl is missing: run `npm run build:binary` first (npm run test:binary does)');
  dir = await makeTempDir('chamberctl-binary-');
  bin = join(dir, 'opt', 'chamberctl');
  await execa('mkdir', ['-p', join(dir, 'opt'), join(dir, 'home'), join(dir, 'tmp'), join(dir, 'empty-path')]);
  copyFileSync(BUILT, bin);
  env = {
    PATH: join(dir, 'empty-path'), // no node, nothing else
    HOME: join(dir, 'home'),
    TMPDIR: join(dir, 'tmp'),
    CHAMBERCTL_CONFIG_DIR: join(dir, 'config'),
    CHAMBERCTL_CACHE_DIR: join(dir, 'cache'),
    CHAMBERCTL_DATA_DIR: join(dir, 'data'),
  };
});
afterAll(async () => {
  if (dir) await removeTempDir(dir);
});

const run = (args: string[], input?: string) =>
  execa(bin, args, { env, extendEnv: false, reject: false, timeout: 30_000, ...(input === undefined ? { stdin: 'ignore' as const } : { input }) });

describe('the single executable', () => {
  it('answers --version and --help', async () => {
    const version = await run(['--version']);
    expect(version).toMatchObject({ exitCode: 0, stdout: JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version, stderr: '' });
    const help = await run(['--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/^Usage: chamberctl /);
    expect(help.stdout).toContain('serve');
  });

  it('prints the completion scripts that ship in completions/', async () => {
    for (const [shell, file] of [['bash', 'chamberctl.bash'], ['zsh', '_chamberctl'], ['fish', 'chamberctl.fish']] as const) {
      const r = await run(['completion', shell]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toBe(readFileSync(join(ROOT, 'completions', file), 'utf8').replace(/\n$/, ''));
    }
  });

  it('serves, logs in, lists, serves /docs, pulls a copy and exports it, writing nothing but its own files', async () => {
    const serve: ResultPromise = execa(bin, ['serve', '--port', '0', '--db', join(dir, 'data', 'served.db'), '--seed', 'demo'], {
      env,
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
      buffer: false,
    });
    try {
      let out = '';
      serve.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
      let err = '';
      serve.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
      const deadline = Date.now() + 30_000;
      while (!/client secret file:\s+\S+/.test(out) && Date.now() < deadline) {
        if (serve.exitCode !== null) throw new Error(`serve exited: ${err}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const baseUrl = /listening on (http:\/\/\S+)/.exec(out)![1]!;
      const id = /client id:\s+(\S+)/.exec(out)![1]!;
      const secret = readFileSync(/client secret file:\s+(\S+)/.exec(out)![1]!, 'utf8').trim(); // off a terminal, never on stdout

      const login = await run(['login', '--base-url', baseUrl, '--client-id', id, '--client-secret-stdin', '--profile', 'bin'], secret);
      expect(login.exitCode, login.stderr).toBe(0);
      const list = await run(['chambers', 'list', '--profile', 'bin', '--per-page', '5', '--json', 'id,name']);
      expect(list.exitCode, list.stderr).toBe(0);
      expect(JSON.parse(list.stdout)).toHaveLength(5);
      // --jq: jq (WebAssembly) from the executable's own assets
      const jq = await run(['chambers', 'list', '--profile', 'bin', '--per-page', '5', '--jq', '.[] | "\\(.id)\\t\\(.name)"']);
      expect(jq).toMatchObject({ exitCode: 0, stderr: '' });
      expect(jq.stdout).toBe((JSON.parse(list.stdout) as Array<{ id: string; name: string }>).map((c) => `${c.id}\t${c.name}`).join('\n'));

      const page = await fetch(`${baseUrl}/docs`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('/docs/assets/swagger-ui-bundle.js');
      for (const path of ['/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui.css']) {
        const r = await fetch(`${baseUrl}${path}`);
        expect(r.status, path).toBe(200);
        expect((await r.arrayBuffer()).byteLength, path).toBeGreaterThan(1000);
      }
      const docsFile = readFileSync(join(ROOT, 'dist', 'docs', 'swagger-ui.css'));
      expect(Buffer.from(await (await fetch(`${baseUrl}/docs/assets/swagger-ui.css`)).arrayBuffer()).equals(docsFile)).toBe(true);

      const copy = join(dir, 'data', 'copy.db');
      const pull = await run(['sync', 'pull', '--profile', 'bin', '--db', copy]);
      expect(pull.exitCode, pull.stderr).toBe(0);
      const snapshot = join(dir, 'data', 'copy.jsonl');
      const exported = await run(['snapshot', 'export', snapshot, '--db', copy]);
      expect(exported.exitCode, exported.stderr).toBe(0);
      expect(exported.stderr).toMatch(/^exported 200 chambers, 5000 members, 1000 events from /);
      expect(statSync(snapshot).size).toBeGreaterThan(100_000);
    } finally {
      serve.kill('SIGTERM');
      await serve;
    }
    // nothing extracted: the temporary folder and HOME stay empty, the cache holds code cache only
    expect(readdirSync(join(dir, 'tmp'))).toEqual([]);
    expect(readdirSync(join(dir, 'home'))).toEqual([]);
    const cacheFiles = readdirSync(join(dir, 'cache'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(cacheFiles.length).toBeGreaterThan(0);
    for (const f of cacheFiles) expect(f.name).toMatch(/\.cjs\.v8$/);
  });
});
