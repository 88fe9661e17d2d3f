// The V8 code cache of the built binary (bin/load-bundle.js): written after a first run,
// used by the next, and never the reason a command fails: corrupt, foreign or stale data is
// ignored and rewritten, an unwritable directory is ignored, concurrent first runs are safe.
import { createRequire } from 'node:module';
import { chmod, chown, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, makeTempDir, removeTempDir, type RunResult } from '../helpers/cli.js';
import { loggedIn, type LoggedIn } from '../commands/logged-in.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const { readCacheData } = createRequire(import.meta.url)('../../bin/load-bundle.js') as {
  readCacheData(file: string): Buffer | undefined;
};

let tmp: string;
let server: TestServer;
let cli: LoggedIn;
let reference: { help: string; list: string };

beforeAll(async () => {
  assertBuilt();
  tmp = await makeTempDir('chamberctl-code-cache-');
  server = await startTestServer({ seed: 'demo' });
  cli = await loggedIn(server);
  const off = { CHAMBERCTL_NO_CODE_CACHE: '1' };
  reference = { help: (await cli.run(['--help'], off)).stdout, list: (await cli.run(['chambers', 'list'], off)).stdout };
});
afterAll(async () => {
  await cli?.cleanup();
  await server?.close();
  await removeTempDir(tmp);
});

let n = 0;
const freshCacheDir = () => join(tmp, `cache-${++n}`);

/** Runs `--help` and `chambers list` with the cache in `dir`; both must answer as without a cache. */
async function runBoth(dir: string): Promise<RunResult[]> {
  const env = { CHAMBERCTL_CACHE_DIR: dir };
  const help = await cli.run(['--help'], env);
  const list = await cli.run(['chambers', 'list'], env);
  for (const r of [help, list]) {
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
  }
  expect(help.stdout).toBe(reference.help);
  expect(list.stdout).toBe(reference.list);
  return [help, list];
}

/** Every cache file under `dir`, by path, with its modification time. */
async function cacheFiles(dir: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const root = join(dir, 'code-cache');
  for (const folder of await readdir(root).catch(() => [] as string[])) {
    for (const f of await readdir(join(root, folder))) out.set(join(root, folder, f), (await stat(join(root, folder, f))).mtimeMs);
  }
  return out;
}

describe('the code cache', () => {
  it('is written by a first run, in one folder for this build and runtime, and used as it is by the next', async () => {
    const dir = freshCacheDir();
    await runBoth(dir);
    const first = await cacheFiles(dir);
    const folders = new Set([...first.keys()].map((f) => f.split('/').at(-2)!.replace(/^[0-9a-f]+-/, '')));
    expect(folders).toEqual(new Set([process.version]));
    for (const file of first.keys()) {
      expect(file).toMatch(/\.cjs\.v8$/);
      expect(readCacheData(file), file).toBeDefined();
    }
    await runBoth(dir);
    expect(await cacheFiles(dir)).toEqual(first); // accepted by V8: nothing rewritten
  });

  it('corrupt data (garbage, truncated, a flipped byte) is ignored and rewritten', async () => {
    const dir = freshCacheDir();
    await runBoth(dir);
    const files = [...(await cacheFiles(dir)).keys()];
    const damage = [
      () => Buffer.from('not a cache at all'),
      (b: Buffer) => b.subarray(0, Math.floor(b.length / 2)),
      (b: Buffer) => {
        const c = Buffer.from(b);
        c[c.length - 10]! ^= 0xff;
        return c;
      },
    ];
    for (const [i, file] of files.entries()) await writeFile(file, damage[i % damage.length]!(await readFile(file)));
    for (const file of files) expect(readCacheData(file), file).toBeUndefined();
    await runBoth(dir);
    for (const file of files) expect(readCacheData(file), `${file} was not rewritten`).toBeDefined();
  });

  it('foreign data with a valid checksum (another file, another flag setting) is refused by V8 and rewritten', async () => {
    const dir = freshCacheDir();
    await runBoth(dir);
    const files = [...(await cacheFiles(dir)).keys()].sort();
    // each file gets the content of another: valid checksums, wrong scripts
    const contents = await Promise.all(files.map((f) => readFile(f)));
    for (const [i, file] of files.entries()) await writeFile(file, contents[(i + 1) % files.length]!);
    await runBoth(dir);
    const after = await Promise.all(files.map((f) => readFile(f)));
    const unchanged = files.filter((f, i) => after[i]!.equals(contents[(i + 1) % files.length]!) && !after[i]!.equals(contents[i]!));
    expect(unchanged).toEqual([]);
  });

  it('folders of other builds are removed when this build writes its own', async () => {
    const dir = freshCacheDir();
    const stale = join(dir, 'code-cache', `${'ab'.repeat(16)}-${process.version}`);
    await mkdir(stale, { recursive: true });
    await writeFile(join(stale, 'cli.cjs.v8'), 'old');
    await runBoth(dir);
    expect(await readdir(join(dir, 'code-cache'))).not.toContain(`${'ab'.repeat(16)}-${process.version}`);
  });

  it('a cache directory that cannot be created or written changes nothing', async () => {
    const blocker = join(tmp, 'a-file');
    await writeFile(blocker, 'x');
    await runBoth(join(blocker, 'cache')); // a path under a file: even root cannot create it
    await runBoth('/proc/chamberctl-nope/cache'); // node's recursive mkdir would never return here
  });

  it('concurrent first runs all succeed and leave whole files', async () => {
    const dir = freshCacheDir();
    const env = { CHAMBERCTL_CACHE_DIR: dir };
    const runs = await Promise.all(Array.from({ length: 6 }, (_, i) => cli.run(i % 2 ? ['--help'] : ['chambers', 'list'], env)));
    for (const [i, r] of runs.entries()) {
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toBe(i % 2 ? reference.help : reference.list);
    }
    const files = [...(await cacheFiles(dir)).keys()];
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    for (const file of files) expect(readCacheData(file), file).toBeDefined();
  });

  it('a cache folder that others can write, or that is not the user\'s, is ignored with one warning', async () => {
    const expectIgnored = async (dir: string, why: string) => {
      for (const args of [['--help'], ['chambers', 'list']]) {
        const r = await cli.run(args, { CHAMBERCTL_CACHE_DIR: dir });
        expect(r.exitCode, r.stderr).toBe(0);
        expect(r.stderr).toBe(`warning: ignoring the code cache in ${why}; chamberctl runs without it\n`);
        expect(r.stdout).toBe(args[0] === '--help' ? reference.help : reference.list);
      }
      expect((await cacheFiles(dir)).size).toBe(0); // nothing read from it is written to it either
      // shell completion stays silent on stderr
      const complete = await cli.run(['__complete', '--', 'chambers', ''], { CHAMBERCTL_CACHE_DIR: dir });
      expect(complete.stderr).toBe('');
    };
    const open = freshCacheDir();
    await mkdir(join(open, 'code-cache'), { recursive: true });
    await chmod(join(open, 'code-cache'), 0o777);
    await expectIgnored(open, `${join(open, 'code-cache')}: others can write it (mode 0777; chmod go-w ${join(open, 'code-cache')} or remove it)`);

    const shared = freshCacheDir(); // CHAMBERCTL_CACHE_DIR itself writable by all, not sticky
    await mkdir(shared);
    await chmod(shared, 0o777);
    await expectIgnored(shared, `${shared}: others can write it (mode 0777; chmod go-w ${shared} or remove it)`);

    const sticky = freshCacheDir(); // as /tmp: others cannot replace what is ours there
    await mkdir(sticky);
    await chmod(sticky, 0o1777);
    await runBoth(sticky);
    expect((await cacheFiles(sticky)).size).toBeGreaterThan(0);

    if (process.getuid?.() === 0) {
      // (only root can give a folder to another user)
      const foreign = freshCacheDir();
      await mkdir(join(foreign, 'code-cache'), { recursive: true, mode: 0o700 });
      await chown(join(foreign, 'code-cache'), 65534, 65534);
      await expectIgnored(foreign, `${join(foreign, 'code-cache')}: it belongs to another user (uid 65534, not 0)`);
    }
  });

  it('CHAMBERCTL_NO_CODE_CACHE=1 turns it off', async () => {
    const dir = freshCacheDir();
    await cli.run(['--help'], { CHAMBERCTL_CACHE_DIR: dir, CHAMBERCTL_NO_CODE_CACHE: '1' });
    expect((await cacheFiles(dir)).size).toBe(0);
  });
});
