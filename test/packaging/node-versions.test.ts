// Which Node.js chamberctl runs on (package.json `engines`, bin/supported-node.js), what it says
// on an older one, and scripts/with-node.sh, which gives the npm scripts of README's two
// commands a Node.js that chamberctl runs on where the machine's own is older (this project's
// machines run 20.20). The older Node.js is the machine's own, whatever runtime runs the tests.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, makeTempDir, removeTempDir } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const { ENGINES, NEEDED, OLDEST, supports } = createRequire(import.meta.url)('../../bin/supported-node.js') as typeof import('../../bin/supported-node.js');
const WITH_NODE = `${ROOT}scripts/with-node.sh`;
/** A Node.js older than chamberctl runs on: CHAMBERCTL_TEST_OLD_NODE, else the machine's own. */
const OLD_NODE = process.env.CHAMBERCTL_TEST_OLD_NODE ?? '/usr/bin/node';

function oldNodeVersion(): string {
  const version = execFileSync(OLD_NODE, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
  expect(supports(version), `${OLD_NODE} is Node.js ${version}, which chamberctl runs on: name an older one in CHAMBERCTL_TEST_OLD_NODE`).toBe(false);
  return version;
}

/** The environment with `dir` first on PATH. */
const pathFirst = (dir: string) => ({ ...cleanEnv(), PATH: [dir, process.env.PATH].join(delimiter) });

describe('the Node.js versions chamberctl runs on', () => {
  it('are what package.json says in `engines`', () => {
    const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe(ENGINES);
  });

  it('start at OLDEST, the target of the build', () => {
    const [major, minor] = OLDEST.split('.').map(Number) as [number, number];
    expect(supports(`${OLDEST}.0`)).toBe(true);
    expect(supports(`${major}.${minor - 1}.99`)).toBe(false);
    expect(readFileSync(`${ROOT}scripts/build.mjs`, 'utf8')).toMatch(/target: NODE_TARGET/);
  });

  it('are 22.16 and later on 22, and 24 and later', () => {
    const versions = ['18.20.8', '20.20.2', 'v20.19.0', '22.0.0', '22.15.1', '22.16.0', 'v22.23.3', '23.11.0', '24.0.0', '24.21.0', '26.10.0', '30.1.2'];
    expect(versions.filter(supports)).toEqual(['22.16.0', 'v22.23.3', '24.0.0', '24.21.0', '26.10.0', '30.1.2']);
    expect(supports(process.versions.node)).toBe(true); // the runtime running these tests
  });
});

describe('chamberctl on an older Node.js', () => {
  it('says in one line which Node.js it needs, and exits 1, whatever the command, where no pinned runtime is beside it (an installed package)', async () => {
    const version = oldNodeVersion();
    // bin/ and package.json alone, as `npm install` lays them out: no scripts/, no .runtimes/
    const dir = await makeTempDir('chamberctl-old-node-');
    try {
      await cp(`${ROOT}bin`, join(dir, 'bin'), { recursive: true });
      await cp(`${ROOT}package.json`, join(dir, 'package.json'));
      for (const args of [['chambers', 'list'], ['serve', '--db', ':memory:'], ['--version'], []]) {
        const r = await execa(OLD_NODE, [join(dir, 'bin', 'chamberctl.js'), ...args], { env: cleanEnv(), extendEnv: false, reject: false, stdin: 'ignore', timeout: 20_000 });
        expect({ args, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr }).toEqual({
          args,
          exitCode: 1,
          stdout: '',
          stderr: `error: chamberctl needs ${NEEDED}; this is Node.js ${version}`,
        });
      }
    } finally {
      await removeTempDir(dir);
    }
  });

  describe('in a checkout whose .runtimes/ holds the pinned LTS (README: chamberctl on PATH)', () => {
    const lts = () => execFileSync(`${ROOT}scripts/runtimes.sh`, ['lts'], { encoding: 'utf8' }).trim();
    let config: string;
    beforeAll(async () => {
      oldNodeVersion();
      execFileSync(`${ROOT}scripts/runtimes.sh`, ['install', lts()], { stdio: 'ignore' }); // as npm run demo and npm test do
      config = await makeTempDir('chamberctl-old-node-config-');
    }, 330_000);
    afterAll(() => removeTempDir(config));
    const env = () => ({ ...cleanEnv(), CHAMBERCTL_CONFIG_DIR: config, CHAMBERCTL_DATA_DIR: config, PATH: [`${ROOT}bin`, dirname(OLD_NODE), process.env.PATH].join(delimiter) });

    it('runs every command on it, through bin/chamberctl on PATH, saying nothing of it', async () => {
      const script = await execa('chamberctl', ['--help'], { env: env(), extendEnv: false, reject: false, stdin: 'ignore' });
      expect(script.exitCode, script.stderr).toBe(0);
      expect(script.stdout).toMatch(/^Usage: chamberctl /);
      const r = await execa(OLD_NODE, [BIN, 'api', '/v2/chambers'], { env: env(), extendEnv: false, reject: false, stdin: 'ignore' });
      expect({ exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr }).toEqual({
        exitCode: 3,
        stdout: '',
        stderr: 'error: there is no profile "default"; run `chamberctl login` for a server, or start a local one with `chamberctl serve`',
      });
    });

    // Ctrl-C reaches the whole foreground process group (both nodes); a supervisor's SIGTERM
    // or a program's SIGINT reaches the one process it started. serve exits 0 for each.
    for (const [signal, to] of [['SIGINT', 'group'], ['SIGINT', 'process'], ['SIGTERM', 'process']] as const) {
      it(`stops serve with exit 0 on ${signal} to its ${to === 'group' ? 'process group (Ctrl-C)' : 'process'}`, async () => {
        const proc = execa(OLD_NODE, [BIN, 'serve', '--db', ':memory:', '--port', '0', '--seed', 'none'], { env: env(), extendEnv: false, reject: false, stdin: 'ignore', detached: true, timeout: 30_000 });
        let out = '';
        proc.stdout!.on('data', (d: Buffer) => (out += d));
        await new Promise<void>((resolve, reject) => {
          proc.stdout!.on('data', () => /listening on /.test(out) && resolve());
          void proc.then((r) => reject(new Error(`serve exited early: ${r.stderr}`)));
        });
        process.kill(to === 'group' ? -proc.pid! : proc.pid!, signal);
        const r = await proc;
        expect({ exitCode: r.exitCode, signal: r.signal, stderr: r.stderr }).toEqual({ exitCode: 0, signal: undefined, stderr: expect.stringMatching(new RegExp(`${signal}: stopping`)) });
      });
    }
  });
});

describe('scripts/with-node.sh', () => {
  it('runs a command with the node on PATH when chamberctl runs on it, and says nothing', async () => {
    const r = await execa(WITH_NODE, ['node', '-p', 'process.versions.node'], { env: pathFirst(dirname(process.execPath)), extendEnv: false });
    expect(r.stdout).toBe(process.versions.node);
    expect(r.stderr).toBe('');
  });

  it('runs it with the pinned LTS where the node on PATH is older, and says so in one line', async () => {
    const version = oldNodeVersion();
    const lts = execFileSync(`${ROOT}scripts/runtimes.sh`, ['lts'], { encoding: 'utf8' }).trim();
    // installs the LTS into .runtimes/ from the npm registry if it is not there yet
    const r = await execa(WITH_NODE, ['node', '-p', 'process.versions.node'], { env: pathFirst(dirname(OLD_NODE)), extendEnv: false, timeout: 300_000 });
    expect(r.stdout).toBe(lts);
    expect(r.stderr.split('\n').filter((l) => !/^installing Node\.js /.test(l))).toEqual([
      `with-node: Node.js v${version} is older than chamberctl runs on; using Node.js ${lts} from .runtimes/ (scripts/runtimes.sh) for: node -p process.versions.node`,
    ]);
  }, 330_000);
});
