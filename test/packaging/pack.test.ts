import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, makeTempDir, removeTempDir } from '../helpers/cli.js';

// `npm pack` holds only what runs, and the tarball installs and works: the way a user
// without the repository gets chamberctl. It depends on no package at all (everything is
// bundled; SQLite is node's own, node:sqlite), so the install builds nothing, and runs no
// install script. Slow all the same (npm packs and installs), so each runs once, in beforeAll.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const INSTALL_TIMEOUT = 600_000;

interface PackedFile {
  path: string;
}

let tmp: string;
let files: string[];
let tarball: string;
let prefix: string;
let installOutput: string;

/** The environment minus what `npm test` exports to its scripts (npm_config_*, npm_package_*...). */
function npmEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(cleanEnv()).filter(([key]) => !/^npm_/i.test(key) && key !== 'INIT_CWD'));
}

const npm = (args: string[], cwd: string, timeout = INSTALL_TIMEOUT) =>
  execa('npm', args, { cwd, env: npmEnv(), extendEnv: false, reject: false, timeout, stdin: 'ignore', all: true });

beforeAll(async () => {
  assertBuilt();
  tmp = await makeTempDir('chamberctl-pack-');
  // --ignore-scripts: `prepare` would rebuild dist/ under the other tests' feet; `npm test`
  // has just built it.
  const pack = await npm(['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], ROOT, 120_000);
  if (pack.exitCode !== 0) throw new Error(`npm pack failed:\n${pack.all}`);
  const [info] = JSON.parse(pack.stdout) as Array<{ filename: string; files: PackedFile[] }>;
  files = info!.files.map((f) => f.path).sort();
  tarball = join(tmp, info!.filename);
}, 180_000);

afterAll(async () => {
  if (tmp) await removeTempDir(tmp);
});

describe('npm pack', () => {
  it('holds the binary, the bundle, the completions, README and LICENSE', () => {
    for (const f of ['package.json', 'README.md', 'LICENSE', 'bin/chamberctl.js', 'bin/load-bundle.js', 'dist/cli.cjs', 'dist/build-id', 'completions/chamberctl.bash', 'completions/_chamberctl', 'completions/chamberctl.fish']) {
      expect(files, `${f} is missing from the package`).toContain(f);
    }
    expect(files.some((f) => f.startsWith('dist/chunks/'))).toBe(true);
  });

  it('holds every man page that package.json lists in "man" (what npm install -g installs)', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { man: string[] };
    expect(pkg.man).toEqual(expect.arrayContaining(['man/chamberctl.1', 'man/chamberctl-members-import.1', 'man/chamberctl-help-exit-codes.7']));
    for (const page of pkg.man) expect(files, `${page} is missing from the package`).toContain(page);
    expect(files.filter((f) => f.startsWith('man/'))).toEqual([...pkg.man].sort());
  });

  it("holds the API reference page's files (GET /docs), with Swagger UI's licence", () => {
    for (const f of ['dist/docs/swagger-ui-bundle.js', 'dist/docs/swagger-ui.css', 'dist/docs/LICENSE', 'dist/docs/NOTICE']) {
      expect(files, `${f} is missing from the package`).toContain(f);
    }
  });

  it('holds nothing else: no sources, tests, benchmarks, CI or build config', () => {
    const allowed = /^(package\.json|README\.md|LICENSE|bin\/[^/]+|dist\/cli\.cjs|dist\/build-id|dist\/chunks\/[^/]+\.cjs|dist\/docs\/[^/]+|completions\/[^/]+|man\/[^/]+\.[17])$/;
    expect(files.filter((f) => !allowed.test(f))).toEqual([]);
    expect(files.filter((f) => /^(src|test|bench|scripts|\.ci|dist\/bench)\/|tsconfig|vitest|\.ts$/.test(f))).toEqual([]);
  });

  it('ships only chunks that dist/cli.cjs can load (none left from old builds or used by benchmarks only)', () => {
    // Follow the require() calls between the packed bundle files (deferred ones included).
    const packed = new Set(files.filter((f) => f.startsWith('dist/') && !f.startsWith('dist/docs/')));
    const reached = new Set<string>();
    const visit = (file: string) => {
      if (reached.has(file)) return;
      reached.add(file);
      const source = readFileSync(join(ROOT, file), 'utf8');
      for (const m of source.matchAll(/\brequire\(["'](\.{1,2}\/[\w./-]+\.cjs)["']\)/g)) {
        const target = posix.normalize(posix.join(posix.dirname(file), m[1]!));
        if (packed.has(target)) visit(target);
      }
    };
    visit('dist/cli.cjs');
    expect(packed.has('dist/build-id')).toBe(true);
    packed.delete('dist/build-id');
    expect([...packed].filter((f) => !reached.has(f))).toEqual([]);
  });
});

describe('the installed tarball', () => {
  const bin = () => join(prefix, 'bin', 'chamberctl');

  beforeAll(async () => {
    // A global install into a private prefix, from a directory outside the project (so only
    // the user's npm config applies).
    prefix = join(tmp, 'prefix');
    const install = await npm(['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball], tmp);
    installOutput = install.all ?? '';
    if (install.exitCode !== 0) throw new Error(`npm install -g of the tarball failed:\n${installOutput}`);
  }, INSTALL_TIMEOUT + 60_000);

  it('installs chamberctl alone: no dependency, no native addon', () => {
    const pkgDir = join(prefix, 'lib', 'node_modules', 'chamberctl');
    expect(existsSync(join(pkgDir, 'dist', 'cli.cjs'))).toBe(true);
    expect(existsSync(join(pkgDir, 'node_modules')), 'the package pulled dependencies').toBe(false);
    const addons = readdirSync(prefix, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.node'));
    expect(addons).toEqual([]);
  });

  it('installs without an engine warning on this runtime', () => {
    // npm resolves a tarball's dependencies afresh (the project's lockfile and `overrides` do
    // not apply), so a dependency could bring a warning of its own; there is none to bring.
    const tooNew = installOutput.split('\n').filter((l) => /EBADENGINE\s+(package|required):/.test(l));
    expect(tooNew).toEqual([]);
  });

  it('prints its version', async () => {
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const r = await execa(bin(), ['--version'], { env: cleanEnv(), reject: false });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(pkg.version);
  });

  it("installs its man pages where man finds them: man chamberctl-members-import", async () => {
    const manDir = join(prefix, 'share', 'man');
    expect(existsSync(join(manDir, 'man1', 'chamberctl.1')), 'chamberctl.1 was not installed').toBe(true);
    expect(existsSync(join(manDir, 'man7', 'chamberctl-help-exit-codes.7')), 'the topic pages were not installed').toBe(true);
    const r = await execa('man', ['-M', manDir, 'chamberctl-members-import'], { env: { ...cleanEnv(), MANWIDTH: '80', PAGER: 'cat', MANPAGER: 'cat' }, reject: false });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^NAME\n\s+chamberctl-members-import - /m);
  });

  it('prints the completion scripts it ships', async () => {
    const r = await execa(bin(), ['completion', 'fish'], { env: cleanEnv(), reject: false, stripFinalNewline: false });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(await readFile(join(ROOT, 'completions', 'chamberctl.fish'), 'utf8'));
  });

  it('serves a throwaway directory and lists its chambers through the local profile', async () => {
    const configDir = join(tmp, 'config');
    const env = { ...cleanEnv(), CHAMBERCTL_CONFIG_DIR: configDir, CHAMBERCTL_DATA_DIR: join(tmp, 'data') };
    const serve = execa(bin(), ['serve', '--port', '0', '--db', ':memory:', '--quiet', '--json'], {
      env,
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
      buffer: false,
    });
    try {
      const started = await waitForServe(serve);
      expect(started.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(started.client_id).toBeTruthy();
      const r = await execa(bin(), ['chambers', 'list', '--json'], { env, extendEnv: false, reject: false, timeout: 30_000 });
      expect(r.exitCode, r.stderr).toBe(0);
      const chambers = JSON.parse(r.stdout) as Array<{ id: string; name: string }>;
      expect(chambers.length).toBeGreaterThan(0);
      expect(chambers[0]).toEqual(expect.objectContaining({ id: expect.any(String), name: expect.any(String) }));
      // --jq: jq (WebAssembly) from the package's own chunk, nothing fetched
      const jq = await execa(bin(), ['chambers', 'list', '--jq', '.[0].name'], { env, extendEnv: false, reject: false, timeout: 30_000 });
      expect(jq).toMatchObject({ exitCode: 0, stdout: chambers[0]!.name, stderr: '' });
      // the API reference page, from the package's own files
      const asset = await fetch(`${started.base_url}/docs/assets/swagger-ui-bundle.js`);
      expect(asset.status).toBe(200);
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    } finally {
      serve.kill('SIGTERM');
      await serve;
    }
  });
});

/** Waits for serve's JSON line on stdout and for the `local` profile to be saved (stderr). */
function waitForServe(proc: ResultPromise): Promise<{ base_url: string; client_id?: string }> {
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${out}\n${err}`)), 30_000);
    const check = () => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line && /profile \\?"local\\?" points here/.test(err)) {
        clearTimeout(timer);
        resolve(JSON.parse(line) as { base_url: string; client_id?: string });
      }
    };
    proc.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      check();
    });
    proc.stderr!.setEncoding('utf8').on('data', (d: string) => {
      err += d;
      check();
    });
    void proc.then(() => {
      clearTimeout(timer);
      reject(new Error(`serve exited early:\n${out}\n${err}`));
    });
  });
}
