// What holds across the resource commands: how versions are chosen for a profile, that tokens
// are reused between commands, the exit codes for missing credentials and an unreachable
// server, that stdout carries only data, and that --help stays light.
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chamber } from '../../src/contract/index.js';
import { BIN, cleanEnv, makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';
import { runRecordingLoads } from '../helpers/bundle-loads.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { loggedIn, versionsOf } from '../commands/logged-in.js';

let server: TestServer;
const log: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ log: (l) => log.push(l) });
});
afterAll(() => server?.close());

async function logged(fn: () => Promise<unknown>): Promise<string[]> {
  const start = log.length;
  await fn();
  return log.slice(start);
}

describe('API versions', () => {
  it('a profile pinned to v1 reads via v1, refuses v2-only options with exit 2, and --api-version v2 overrides', async () => {
    const cli = await loggedIn(server, { apiVersion: 'v1' });
    try {
      let list: Chamber[] = [];
      const lines = await logged(async () => {
        list = await cli.json(['chambers', 'list', '--per-page', '3']);
        await cli.json(['chambers', 'get', list[0]!.id]);
        await cli.json(['members', 'list', list[0]!.id]);
      });
      expect(versionsOf(lines, /^\/chambers/)).toEqual(['v1', 'v1', 'v1']);

      const refused = await logged(async () => {
        const r = await cli.run(['chambers', 'list', '--status', 'active']);
        expect(r.exitCode).toBe(2);
        expect(r.stderr).toBe(
          'error: --status needs API v2, but profile "default" is pinned to v1; use --api-version v2, or unpin it with `chamberctl config set api-version auto`\n',
        );
        const create = await cli.run(['chambers', 'create', '--name', 'X', '--type', 'hq', '--street', 's', '--city', 'c', '--country', 'DE']);
        expect(create.exitCode).toBe(2);
        expect(create.stderr).toMatch(/^error: chambers create needs API v2/);
        const include = await cli.run(['chambers', 'get', list[0]!.id, '--include', 'members']);
        expect(include.exitCode).toBe(2);
        expect(include.stderr).toMatch(/^error: --include needs API v2/);
      });
      expect(refused.filter((l) => !l.includes('/auth/token'))).toEqual([]);

      const overridden = await logged(async () => {
        const r = await cli.json<Chamber[]>(['chambers', 'list', '--status', 'active', '--api-version', 'v2']);
        expect(r.every((c) => c.status === 'active')).toBe(true);
      });
      expect(versionsOf(overridden, /^\/chambers$/)).toEqual(['v2']);

      const flagV1 = await cli.run(['--api-version', 'v1', 'chambers', 'list', '--sort', 'name']);
      expect(flagV1.exitCode).toBe(2);
      expect(flagV1.stderr).toContain('but --api-version v1 was given');
    } finally {
      await cli.cleanup();
    }
  });

  it('a profile pinned to v2 sends plain reads to v2; --api-version v1 sends them to v1', async () => {
    const cli = await loggedIn(server, { apiVersion: 'v2' });
    try {
      const lines = await logged(async () => {
        await cli.json(['chambers', 'list']);
        await cli.json(['chambers', 'list', '--api-version', 'v1']);
      });
      expect(versionsOf(lines, /^\/chambers$/)).toEqual(['v2', 'v1']);
    } finally {
      await cli.cleanup();
    }
  });
});

describe('tokens', () => {
  it('one token request per version, reused across commands', async () => {
    const cli = await loggedIn(server); // auto: login checks (and caches) a v2 token
    try {
      const afterLogin = server.tokenRequests();
      const [c] = await cli.json<Chamber[]>(['chambers', 'list', '--per-page', '1']); // v1: first v1 token
      await cli.json(['chambers', 'get', c!.id]);
      await cli.json(['members', 'list', c!.id]);
      await cli.run(['chambers', 'list', '--all']);
      await cli.json(['chambers', 'list', '--type', 'hq']); // v2: the token from login
      await cli.json(['events', 'list', c!.id]);
      expect(server.tokenRequests() - afterLogin).toBe(1);
    } finally {
      await cli.cleanup();
    }
  });
});

describe('exit codes', () => {
  it('no credentials: exit 3 with a hint, nothing on stdout', async () => {
    const dir = await makeTempDir();
    try {
      for (const args of [['chambers', 'list'], ['events', 'list', 'ch_x', '--json']]) {
        const r = await runCli(args, { configDir: dir });
        expect(r.exitCode).toBe(3);
        expect(r.stderr).toMatch(/^error: .*chamberctl login/);
        expect(r.stdout).toBe('');
      }
    } finally {
      await removeTempDir(dir);
    }
  });

  it('server unreachable: exit 1 with one error line, no stack trace', async () => {
    const cli = await loggedIn(server);
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    try {
      const creds = { CHAMBERCTL_CLIENT_ID: server.clientId, CHAMBERCTL_CLIENT_SECRET: server.clientSecret }; // another origin
      const r = await cli.run(['chambers', 'list', '--base-url', `http://127.0.0.1:${port}`], creds);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(/^error: /);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stdout).toBe('');
    } finally {
      await cli.cleanup();
    }
  });
});

describe('streams', () => {
  it('--json with --verbose: stdout is still only the JSON, the exchanges go to stderr with the token redacted', async () => {
    const cli = await loggedIn(server);
    try {
      const r = await cli.run(['chambers', 'list', '--per-page', '2', '--json', '--verbose']);
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout)).toHaveLength(2);
      expect(r.stderr).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/v1\/chambers\?page=1&per_page=2/);
      expect(r.stderr).not.toMatch(/Bearer [A-Za-z0-9._-]{20,}/);
    } finally {
      await cli.cleanup();
    }
  });

  it('no colour and no footer without a terminal, whatever FORCE_COLOR says', async () => {
    const cli = await loggedIn(server);
    try {
      const r = await cli.run(['chambers', 'list'], { FORCE_COLOR: '3' });
      expect(r.stdout).not.toContain('\u001b[');
      expect(r.stderr).toBe('');
    } finally {
      await cli.cleanup();
    }
  });
});

describe('start-up', () => {
  async function loaded(args: string[], configDir: string): Promise<string[]> {
    const r = await runRecordingLoads(args, { CHAMBERCTL_CONFIG_DIR: configDir });
    expect(r.exitCode, r.stderr).toBe(0);
    return r.sources;
  }

  // node:sqlite is node's own, so the SQLite storage is known by its sources
  const heavy = /node_modules\/(undici|cli-table3|ora|@inquirer|fastify|jq-wasm)\/|^src\/storage\/sqlite\//;

  it('--help of the resource commands loads no HTTP, table, spinner, prompt or server code', async () => {
    const configDir = await makeTempDir();
    try {
      for (const args of [['--help'], ['chambers', 'list', '--help'], ['members', 'add', '--help'], ['events', 'list', '--help']]) {
        const urls = await loaded(args, configDir);
        expect(urls.some((u) => u.startsWith('src/cli/'))).toBe(true); // the log saw our modules
        expect(urls.filter((u) => heavy.test(u)), args.join(' ')).toEqual([]);
        expect(urls, 'the texts of help were not loaded').toContain('src/cli/help-texts.ts');
      }
    } finally {
      await removeTempDir(configDir);
    }
  });

  it('a piped chambers list loads neither the table nor the spinner code', async () => {
    const cli = await loggedIn(server);
    try {
      await cli.run(['chambers', 'list']); // a token, fetched and cached: later runs only read the config
      for (const args of [['chambers', 'list'], ['chambers', 'list', '--json'], ['chambers', 'list', '--format', 'csv']]) {
        const urls = await loaded(args, cli.dir);
        expect(urls.some((u) => /node_modules\/undici\//.test(u))).toBe(true);
        expect(urls.some((u) => /node_modules\/zod\/v4\/mini\//.test(u))).toBe(true);
        // string-width builds an Intl.Segmenter as it loads (~30 ms); zod's classic API
        // builds schemas several times slower than zod/mini (the contract uses the latter);
        // conf and its ajv are needed to write the config file, not to read it
        const slow = /node_modules\/(cli-table3|ora|chalk|@inquirer|string-width|get-east-asian-width|conf|ajv|semver|jq-wasm)\/|node_modules\/zod\/v4\/classic\//;
        expect(urls.filter((u) => slow.test(u)), args.join(' ')).toEqual([]);
        // the texts of help (src/cli/help-texts.ts) are for help only
        expect(urls.filter((u) => /^src\/(cli\/help-texts|cli\/topics\/|commands\/[^/]+\/help\.ts)/.test(u)), args.join(' ')).toEqual([]);
      }
    } finally {
      await cli.cleanup();
    }
  });

  // Node 20 loads its bundled undici lazily, through a getter on the web globals; 22 and later
  // through lazy data properties, which any read loads (even the probe's descriptor read, so
  // the probe looks at the loaded modules first). Either way the CLI adds nothing to what node
  // does itself.
  it("loads no more of node's own bundled undici than node itself does, and leaves node's Headers in place", async () => {
    const cli = await loggedIn(server);
    const probe = join(cli.dir, 'probe.cjs');
    // at exit: whether node loaded its internal undici during the run, then what Headers is
    await writeFile(
      probe,
      `process.on('exit', () => { const loaded = process.moduleLoadList.some((m) => m.includes('deps/undici')); const get = typeof Object.getOwnPropertyDescriptor(globalThis, 'Headers').get; process.stderr.write(JSON.stringify({ loaded, get, headers: typeof globalThis.Headers })); });`,
    );
    try {
      await cli.run(['chambers', 'list']); // the token, cached
      const r = await execa(process.execPath, ['--require', probe, BIN, 'chambers', 'list'], {
        env: { ...cleanEnv(), CHAMBERCTL_CONFIG_DIR: cli.dir },
        extendEnv: false,
        reject: false,
      });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toContain('\t');
      const bare = await execa(process.execPath, ['--require', probe, '-e', '0'], { env: cleanEnv(), extendEnv: false });
      const lazy = Number(process.versions.node.split('.')[0]) < 22;
      expect(JSON.parse(bare.stderr)).toEqual(lazy ? { loaded: false, get: 'function', headers: 'function' } : { loaded: false, get: 'undefined', headers: 'function' });
      expect(JSON.parse(r.stderr)).toEqual(JSON.parse(bare.stderr));
    } finally {
      await cli.cleanup();
    }
  });
});
