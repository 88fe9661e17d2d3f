import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { assertShell, makeShellWorld, shellComplete, type ShellName, type ShellWorld } from './shell-harness.js';

// The committed completion scripts, loaded into the real shells, asked what they complete.

let root: string;
let server: TestServer;
let world: ShellWorld;
let configText: string;

beforeAll(async () => {
  assertBuilt();
  root = await makeTempDir('chamberctl-shells-');
  const configDir = join(root, 'config');
  // Two profiles, made the way a user makes them: `chamberctl login` against the real server.
  server = await startTestServer({ seed: 'none' });
  for (const profile of ['staging', 'prod']) {
    const r = await runCli(
      ['login', '--profile', profile, '--base-url', server.baseUrl, '--client-id', server.clientId, '--client-secret', server.clientSecret],
      { configDir },
    );
    expect(r.exitCode, r.stderr).toBe(0);
  }
  configText = await readFile(join(configDir, 'config.json'), 'utf8');
  world = await makeShellWorld(root, configDir);
  await writeFile(join(world.cwd, 'members.csv'), 'name,email,membership_type\n');
  await writeFile(join(world.cwd, 'notes.txt'), '');
  await mkdir(join(world.cwd, 'exports'));
}, 60_000);

afterAll(async () => {
  await server?.close();
  if (root) await removeTempDir(root);
});

const sorted = (xs: string[]) => [...xs].sort();

describe.each<ShellName>(['bash', 'zsh', 'fish'])('%s completion', (shell) => {
  const complete = (line: string) => shellComplete(shell, line, world);

  beforeAll(() => assertShell(shell));

  it('completes the top-level commands, without the hidden __complete', async () => {
    const got = await complete('chamberctl ');
    expect(got).toEqual(expect.arrayContaining(['chambers', 'members', 'events', 'login', 'profiles', 'serve', 'completion']));
    expect(got).not.toContain('__complete');
  });

  it('completes a nested subcommand', async () => {
    expect(await complete('chamberctl chambers l')).toEqual(['list']);
    expect(sorted(await complete('chamberctl members '))).toEqual(expect.arrayContaining(['add', 'import', 'list']));
  });

  it("completes a command's options and the global ones after the subcommand", async () => {
    expect(await complete('chamberctl chambers list --ty')).toEqual(['--type']);
    expect(await complete('chamberctl chambers list --js')).toEqual(['--json']);
    expect(await complete('chamberctl members import ch_1 members.csv --dry')).toEqual(['--dry-run']);
  });

  it('completes the allowed values of an option, per command', async () => {
    expect(sorted(await complete('chamberctl chambers list --type '))).toEqual(['hq', 'subsidiary']);
    expect(sorted(await complete('chamberctl events list ch_1 --status '))).toEqual(['canceled', 'past', 'upcoming']);
    expect(sorted(await complete('chamberctl chambers list --status '))).toEqual(['active', 'inactive', 'pending']);
    expect(sorted(await complete('chamberctl chambers list --sort -'))).toEqual(['-created_at', '-name']);
    expect(await complete('chamberctl completion f')).toEqual(['fish']);
  });

  it('completes a value given as --option=value', async () => {
    // bash replaces only the text after "=", the other shells the whole word
    expect(await complete('chamberctl chambers list --type=h')).toEqual([shell === 'bash' ? 'hq' : '--type=hq']);
  });

  it('completes profile names, and never prints a secret', async () => {
    expect(sorted(await complete('chamberctl --profile '))).toEqual(['prod', 'staging']);
    expect(sorted(await complete('chamberctl profiles use '))).toEqual(['prod', 'staging']);
    expect(await complete('chamberctl chambers list --profile st')).toEqual(['staging']);
    expect(configText).toContain(server.clientSecret);
    const r = await runCli(['__complete', '--', 'profiles', 'remove', ''], { configDir: world.env.CHAMBERCTL_CONFIG_DIR! });
    expect(r.stdout).not.toContain(server.clientSecret);
  });

  it('completes file names for the CSV file and --report of members import', async () => {
    const files = await complete('chamberctl members import ch_1 ');
    expect(files).toContain('members.csv');
    expect(files.some((f) => f.startsWith('exports'))).toBe(true);
    expect(await complete('chamberctl members import ch_1 mem')).toEqual(['members.csv']);
    expect(await complete('chamberctl members import ch_1 members.csv --report no')).toEqual(['notes.txt']);
    // after "--report=", the file name (bash and zsh complete the part after "=", fish the word)
    const afterEquals = await complete('chamberctl members import ch_1 --report=no');
    expect(afterEquals.map((f) => f.replace(/^--report=/, ''))).toEqual(['notes.txt']);
  });

  it('offers no file names where a value is free text', async () => {
    expect(await complete('chamberctl chambers create --name ')).toEqual([]);
    expect(await complete('chamberctl chambers get ')).toEqual([]);
  });
});
