// Help that is not one command's: `chamberctl help exit-codes|environment|...`, the same text
// as its page of the manual, and an unknown topic as the usage error it is (the built
// binary, no server needed).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS } from '../../src/cli/help-topics.js';
import { makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';

let cfg: string;
beforeAll(async () => {
  cfg = await makeTempDir('chamberctl-help-');
});
afterAll(() => removeTempDir(cfg));

const run = (...args: string[]) => runCli(args, { configDir: cfg });

describe('help topics', () => {
  it('help exit-codes prints the table that api --help points at', async () => {
    const api = await run('api', '--help');
    expect(api.stdout).toContain('`chamberctl help exit-codes`');
    const r = await run('help', 'exit-codes');
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    for (const code of ['0', '1', '2', '3', '4', '5', '130']) expect(r.stdout).toMatch(new RegExp(`^ {4}${code} +\\S`, 'm'));
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('`chamberctl api` exits with the code of the answer');
  });

  it('help environment names the variables, and global options before help are fine', async () => {
    const r = await run('--no-color', 'help', 'environment');
    expect(r.exitCode).toBe(0);
    for (const name of ['CHAMBERCTL_PROFILE', 'CHAMBERCTL_CONFIG_DIR', 'NO_COLOR', 'HTTPS_PROXY']) expect(r.stdout).toContain(name);
  });

  it.each(Object.keys(TOPICS))('help %s prints what its page of the manual says under its heading', async (topic) => {
    const page = readFileSync(new URL(`../../docs/manual/help-${topic}.md`, import.meta.url), 'utf8');
    const heading = `# chamberctl help ${topic}\n\n`;
    expect(page).toContain(heading);
    const r = await run('help', topic);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.length).toBeGreaterThan(200);
    expect(r.stdout).toBe(page.slice(page.indexOf(heading) + heading.length));
  });

  it('chamberctl --help lists the topics', async () => {
    const r = await run('--help');
    expect(r.stdout).toMatch(/Help topics:\n {2}\$ chamberctl help exit-codes +# .*\n {2}\$ chamberctl help environment +# /);
  });

  it('help COMMAND SUBCOMMAND shows that subcommand, as --help does', async () => {
    const r = await run('help', 'chambers', 'list');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe((await run('chambers', 'list', '--help')).stdout);
  });

  it.each([
    [['help', 'bogus'], 'error: no help for "bogus": "bogus" is not a command of chamberctl; topics: exit-codes, environment, output, csv-format, api-versions, offline, http, destructive; commands: chambers,'],
    [['--profile', 'x', 'help', 'exit-code'], 'error: no help for "exit-code"'],
    [['help', 'chambers', 'bogus'], 'error: no help for "chambers bogus": "bogus" is not a command of chamberctl chambers; commands: list, get, create'],
  ])('%j is a usage error (exit 2), not the main help', async (args, message) => {
    const r = await run(...args);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
