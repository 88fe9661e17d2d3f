// scripts/test-tools.sh: the one list of the system tools the tests use, which README's test
// command (npm test) and npm run test:shells run first, so that both pass on a fresh machine
// (it installs what is missing as root with apt-get) or stop before running anything with
// one line that names what is missing and how to install it. Here it runs with a PATH that
// has no apt-get, as a machine where it cannot install.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPT = join(ROOT, 'scripts', 'test-tools.sh');

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir('chamberctl-test-tools-');
});
afterAll(() => removeTempDir(dir));

/** A directory of stand-ins for `names` (each exits 0), to be the whole PATH. */
async function path(names: string[]): Promise<string> {
  const bin = join(dir, names.join('-') || 'none');
  await mkdir(bin, { recursive: true });
  for (const name of names) {
    await writeFile(join(bin, name), '#!/bin/sh\nexit 0\n');
    await chmod(join(bin, name), 0o755);
  }
  return bin;
}

const run = async (set: string, PATH: string) => execa('/bin/bash', [SCRIPT, set], { env: { PATH }, extendEnv: false, reject: false, stdin: 'ignore' });

describe('scripts/test-tools.sh', () => {
  it('stops with one line naming the missing tools and their install command where it cannot install them', async () => {
    const r = await run('shells', await path(['bash', 'id']));
    expect({ exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr }).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'error: the tests need zsh, fish, which are not installed; install them with: sudo apt-get install -y --no-install-recommends zsh fish',
    });
    const suite = await run('suite', await path(['bash', 'id', 'groff', 'man', 'curl', 'haproxy', 'nginx', 'pgbouncer', 'openssl', 'systemd-analyze']));
    expect(suite.exitCode).toBe(1);
    expect(suite.stderr).toBe('error: the tests need mandoc, chromium, jq, which are not installed; install them with: sudo apt-get install -y --no-install-recommends mandoc chromium jq');
  });

  it('says nothing and lets the run go on when every tool is there', async () => {
    const r = await run('shells', await path(['bash', 'zsh', 'fish']));
    expect({ exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr }).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('is what npm test and npm run test:shells run first, and CI installs nothing besides README’s commands', async () => {
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.test).toMatch(/^scripts\/test-tools\.sh suite && /);
    expect(pkg.scripts['test:shells']).toMatch(/^scripts\/test-tools\.sh shells && /);
    expect(await readFile(join(ROOT, '.ci', 'run'), 'utf8')).not.toMatch(/apt-get|pg_ctlcluster/);
  });
});
