import { readFile } from 'node:fs';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPT_FILES, SHELLS } from '../../src/completion/shells.js';
import { assertBuilt, makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';
import { runRecordingLoads } from '../helpers/bundle-loads.js';
import { COMPLETIONS_DIR } from './shell-harness.js';

// `chamberctl completion SHELL` (the built binary) and the cost of `__complete`.

let dir: string;
beforeAll(async () => {
  assertBuilt();
  dir = await makeTempDir();
});
afterAll(() => removeTempDir(dir));

describe('chamberctl completion', () => {
  it.each(SHELLS)('prints exactly the committed completions/ script for %s', async (shell) => {
    const r = await runCli(['completion', shell], { configDir: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    const committed = await promisify(readFile)(join(COMPLETIONS_DIR, SCRIPT_FILES[shell]), 'utf8');
    expect(r.stdout, `completions/${SCRIPT_FILES[shell]} differs from \`chamberctl completion ${shell}\``).toBe(committed);
    expect(r.stdout).toContain('__complete --');
  });

  it('refuses an unknown shell with a usage error', async () => {
    const r = await runCli(['completion', 'powershell'], { configDir: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/powershell.*invalid.*bash, zsh, fish/s);
    expect(r.stdout).toBe('');
  });

  it('explains itself with examples and keeps __complete out of the help', async () => {
    const top = await runCli(['--help'], { configDir: dir });
    expect(top.stdout).toMatch(/Shell:\n\s+completion <shell>/);
    expect(top.stdout).not.toContain('__complete');
    const help = await runCli(['completion', '--help'], { configDir: dir });
    expect(help.stdout).toContain('Examples:\n  $ chamberctl completion bash > ');
  });
});

describe('chamberctl __complete', () => {
  /** The dependencies a run loads, whether bundled into dist/ or required from node_modules. */
  async function dependenciesLoaded(args: string[]): Promise<{ stdout: string; packages: Set<string>; sources: string[] }> {
    const r = await runRecordingLoads(args, { CHAMBERCTL_CONFIG_DIR: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    return { stdout: r.stdout, packages: r.packages, sources: r.sources };
  }

  const HEAVY = ['undici', 'fastify', 'cli-table3', 'ora', '@inquirer/prompts', '@inquirer/core', 'conf'];

  it.each([
    [['chambers', 'list', '--type', '']],
    [['profiles', 'use', '']],
    [['members', 'import', 'ch_1', '']],
    [['chambers', 'list', '--sort', '']],
    [['chambers', 'get', 'ch_1', '--include', 'members,']],
  ])('loads no HTTP, server, table, spinner, prompt or config-store code: %j', async (words) => {
    const { stdout, packages, sources } = await dependenciesLoaded(['__complete', '--', ...words]);
    expect(stdout).toMatch(/:(no)?files\n$/);
    expect(packages).toContain('commander'); // the log sees bundled code
    for (const heavy of HEAVY) expect(packages, `__complete loaded ${heavy}`).not.toContain(heavy);
    expect(sources.filter((s) => s.startsWith('src/storage/sqlite/')), '__complete loaded the SQLite storage').toEqual([]);
    expect(packages, 'the contract\'s values come from src/contract/values.ts, without zod').not.toContain('zod');
  });

  it('takes the sorts and includes from the contract without loading zod', async () => {
    expect((await dependenciesLoaded(['__complete', '--', 'chambers', 'list', '--sort', ''])).stdout).toBe('name\n-name\ncreated_at\n-created_at\n:nofiles\n');
    expect((await dependenciesLoaded(['__complete', '--', 'chambers', 'get', 'ch_1', '--include', 'members,'])).stdout).toBe('members,events\n:nofiles\n');
  });
});
