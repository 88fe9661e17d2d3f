import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram, run } from '../../src/cli/program.js';
import { complete } from '../../src/completion/complete.js';
import { jsonFieldsOf } from '../../src/commands/shared/json-fields.js';
import { CHAMBER_SORT_FIELDS, MEMBER_SORT_FIELDS } from '../../src/contract/index.js';
import { openProfileStore } from '../../src/config/profile-store.js';
import { fakeContext } from '../helpers/fake-context.js';
import { makeTempDir, removeTempDir } from '../helpers/cli.js';

// `__complete` against the live command tree, in-process.

let configDir: string;
beforeAll(async () => {
  configDir = await makeTempDir();
  const store = openProfileStore({ CHAMBERCTL_CONFIG_DIR: configDir });
  await store.set('staging', { baseUrl: 'https://staging.example.org', apiVersion: 'auto', clientId: 'ci', clientSecret: 'S3cretS3cret', tokens: {} });
  await store.set('prod', { baseUrl: 'https://directory.example.org', apiVersion: 'v2', tokens: {} });
  await store.setCurrent('prod');
});
afterAll(() => removeTempDir(configDir));

const env = () => ({ CHAMBERCTL_CONFIG_DIR: configDir });

async function values(...words: string[]) {
  const program = buildProgram(fakeContext({ env: env() }), '0.0.0-test');
  const c = await complete(program, words, env(), jsonFieldsOf);
  return { values: c.candidates.map((x) => x.value), directive: c.directive, candidates: c.candidates };
}

describe('complete', () => {
  it('offers the visible top-level commands with their descriptions, never hidden ones', async () => {
    const r = await values('');
    expect(r.values).toEqual(expect.arrayContaining(['chambers', 'members', 'events', 'login', 'logout', 'auth', 'profiles', 'serve', 'completion', 'help']));
    expect(r.values).not.toContain('__complete');
    expect(r.candidates.find((c) => c.value === 'chambers')?.description).toMatch(/chambers/i);
    expect(r.directive).toBe('nofiles');
  });

  it('--json FIELDS: the record fields, after --json= and after --json once the operands are there', async () => {
    expect((await values('chambers', 'list', '--json', 'i')).values).toEqual(['id']);
    expect((await values('chambers', 'list', '--json', 'id,n')).values).toEqual(['id,name']);
    expect((await values('events', 'list', 'ch_1', '--json=st')).values).toEqual(['--json=status', '--json=starts_at']);
    expect((await values('chambers', 'get', 'ch_1', '--json', 'id,m')).values).toEqual(['id,members']);
    // the operand is still missing: the word after --json is the chamber id
    expect((await values('members', 'list', '--json', 'i')).values).not.toContain('id');
    // a command that prints no records has no fields to offer
    expect((await values('profiles', 'list', '--json=i')).values).toEqual([]);
  });

  it('--jq: offered by the commands that print JSON, not by the others; its value is typed, not completed', async () => {
    for (const words of [['chambers', 'list'], ['chambers', 'get', 'ch_1'], ['members', 'import', 'ch_1', 'f.csv'], ['api', '/v2/chambers'], ['auth', 'status'], ['sync', 'status'], ['clients', 'list'], ['audit']]) {
      expect((await values(...words, '--j')).values, words.join(' ')).toContain('--jq');
    }
    expect((await values('logout', '--j')).values).not.toContain('--jq');
    expect((await values('serve', '--j')).values).not.toContain('--jq');
    expect((await values('chambers', 'list', '--jq', ''))).toMatchObject({ values: [], directive: 'nofiles' });
  });

  it('walks nested subcommands and filters by the prefix', async () => {
    expect((await values('chambers', 'l')).values).toEqual(['list']);
    expect((await values('members', '')).values).toEqual(expect.arrayContaining(['list', 'add', 'import']));
    expect((await values('profiles', 'r')).values).toEqual(['remove']);
    // global options before the subcommand are skipped, with their values
    expect((await values('--profile', 'prod', '--json', 'chambers', 'g')).values).toEqual(['get']);
  });

  it("offers a command's options and the global ones, minus those already given", async () => {
    const all = (await values('chambers', 'list', '--')).values;
    expect(all).toEqual(expect.arrayContaining(['--type', '--status', '--sort', '--page', '--all', '--help', '--profile', '--json', '--api-version', '--no-color']));
    expect(all).not.toContain('--version');
    expect((await values('chambers', 'list', '--type', 'hq', '--t')).values).toEqual([]);
    expect((await values('chambers', 'list', '--json', '--j')).values).toEqual([]);
    // nothing positional left: the options are what can follow
    expect((await values('chambers', 'list', '')).values).toContain('--type');
  });

  it('offers argChoices, which differ per command', async () => {
    expect((await values('chambers', 'list', '--type', '')).values).toEqual(['hq', 'subsidiary']);
    expect((await values('chambers', 'list', '--status', '')).values).toEqual(['active', 'inactive', 'pending']);
    expect((await values('events', 'list', 'ch_1', '--status', '')).values).toEqual(['upcoming', 'past', 'canceled']);
    expect((await values('members', 'add', 'ch_1', '--membership-type', 'p')).values).toEqual(['premium']);
    expect((await values('--api-version', '')).values).toEqual(['auto', 'v1', 'v2']);
    expect((await values('serve', '--seed', '')).values).toEqual(['demo', 'none']);
    expect((await values('completion', '')).values).toEqual(['bash', 'zsh', 'fish']);
  });

  it('completes --option=value as one word', async () => {
    expect((await values('chambers', 'list', '--type=s')).values).toEqual(['--type=subsidiary']);
    expect((await values('chambers', 'list', '--json=')).values).toEqual(['id', 'name', 'type', 'status', 'hq_id', 'address', 'created_at'].map((f) => `--json=${f}`));
  });

  it('offers the contract sort fields, ascending and descending', async () => {
    expect((await values('chambers', 'list', '--sort', '')).values).toEqual(CHAMBER_SORT_FIELDS.flatMap((f) => [f, `-${f}`]));
    expect((await values('members', 'list', 'ch_1', '--sort', '-')).values).toEqual(MEMBER_SORT_FIELDS.map((f) => `-${f}`));
    // a value starting with "-" is still the value of --sort, as commander reads it
    expect((await values('chambers', 'list', '--sort', '-name', '--p')).values).toEqual(['--page', '--per-page', '--profile']);
  });

  it('offers the includes of chambers get as a comma-separated list', async () => {
    expect((await values('chambers', 'get', 'ch_1', '--include', '')).values).toEqual(['members', 'events']);
    expect((await values('chambers', 'get', 'ch_1', '--include', 'events,')).values).toEqual(['events,members']);
  });

  it('offers profile names from CHAMBERCTL_CONFIG_DIR, described by URL, never a secret', async () => {
    const r = await values('--profile', '');
    expect(r.values).toEqual(['prod', 'staging']);
    expect(r.candidates[0]?.description).toBe('https://directory.example.org (current)');
    expect(JSON.stringify(r.candidates)).not.toContain('S3cretS3cret');
    expect((await values('profiles', 'use', 's')).values).toEqual(['staging']);
    expect((await values('profiles', 'remove', '')).values).toEqual(['prod', 'staging']);
    expect((await values('chambers', 'list', '--profile=p')).values).toEqual(['--profile=prod']);
  });

  it('asks for file names for the CSV file and --report of members import, and --db of serve', async () => {
    expect(await values('members', 'import', 'ch_1', '')).toMatchObject({ values: [], directive: 'files' });
    expect(await values('members', 'import', 'ch_1', 'in.csv', '--report', '')).toMatchObject({ directive: 'files' });
    expect(await values('members', 'import', 'ch_1', '--report=')).toMatchObject({ directive: 'files' });
    expect(await values('serve', '--db', '')).toMatchObject({ directive: 'files' });
    // the chamber id before it is free text
    expect(await values('members', 'import', '')).toMatchObject({ values: [], directive: 'nofiles' });
  });

  it('offers the clients subcommands, the scopes of --scope, and files for --db of clients and audit', async () => {
    expect((await values('clients', '')).values).toEqual(['add', 'list', 'edit', 'rotate', 'revoke', 'help']);
    expect((await values('clients', 'add', 'alice', '--scope', '')).values).toEqual(['read', 'write']);
    expect((await values('clients', 'add', 'alice', '--scope=r')).values).toEqual(['--scope=read']);
    expect((await values('clients', 'edit', 'alice', '--scope', '')).values).toEqual(['read', 'write']);
    expect((await values('clients', 'edit', 'alice', '--scope=w')).values).toEqual(['--scope=write']);
    expect((await values('clients', 'edit', 'alice', '--')).values).toEqual(expect.arrayContaining(['--scope', '--db']));
    expect((await values('clients', 'revoke', 'alice', '--')).values).toEqual(expect.arrayContaining(['--yes', '--db']));
    for (const words of [['clients', 'add', 'alice'], ['clients', 'list'], ['clients', 'edit', 'alice'], ['clients', 'rotate', 'alice'], ['clients', 'revoke', 'alice'], ['audit']]) {
      expect(await values(...words, '--db', '')).toMatchObject({ values: [], directive: 'files' });
    }
    expect((await values('audit', '--')).values).toEqual(expect.arrayContaining(['--since', '--client', '--limit', '--db']));
    // the client id is free text: no file names (as for rotate and revoke, no ids offered: listing them would open the database)
    for (const verb of ['edit', 'rotate', 'revoke']) expect(await values('clients', verb, '')).toMatchObject({ values: [], directive: 'nofiles' });
  });

  it('treats every word after -- as positional', async () => {
    expect(await values('members', 'import', '--', 'ch_1', '')).toMatchObject({ directive: 'files' });
    expect((await values('members', 'import', 'ch_1', 'in.csv', '--', '--d')).values).toEqual([]);
  });

  it('completes the command names after help', async () => {
    expect((await values('help', 'ch')).values).toEqual(['chambers']);
    expect((await values('chambers', 'help', '')).values).toEqual(['list', 'get', 'create']);
  });
});

describe('chamberctl __complete', () => {
  it('prints candidate lines with tab-separated descriptions, then the directive', async () => {
    const ctx = fakeContext({ env: env() });
    expect(await run(['__complete', '--', 'chambers', 'l'], ctx, '0.0.0-test')).toBe(0);
    expect(ctx.out()).toMatch(/^list\tList chambers[^\n]*\n:nofiles\n$/);
    expect(ctx.err()).toBe('');
  });

  it('`__complete clients ""` offers add, list, edit, rotate and revoke', async () => {
    const ctx = fakeContext({ env: env() });
    expect(await run(['__complete', '--', 'clients', ''], ctx, '0.0.0-test')).toBe(0);
    expect(ctx.out().split('\n').map((l) => l.split('\t')[0])).toEqual(['add', 'list', 'edit', 'rotate', 'revoke', 'help', ':nofiles', '']);
    expect(ctx.err()).toBe('');
  });

  it('passes global options among the words through to the completion, not to the program', async () => {
    const ctx = fakeContext({ env: env() });
    expect(await run(['__complete', '--', 'chambers', 'list', '--json', '--profile', ''], ctx, '0.0.0-test')).toBe(0);
    expect(ctx.out()).toBe('prod\thttps://directory.example.org (current)\nstaging\thttps://staging.example.org\n:nofiles\n');
  });

  it('answers :nofiles with no candidates, silently, when the config file is not JSON', async () => {
    const dir = await makeTempDir();
    try {
      await writeFile(`${dir}/config.json`, '{not json');
      const ctx = fakeContext({ env: { CHAMBERCTL_CONFIG_DIR: dir } });
      expect(await run(['__complete', '--', 'profiles', 'use', ''], ctx, '0.0.0-test')).toBe(0);
      expect(ctx.out()).toBe(':nofiles\n');
      expect(ctx.err()).toBe('');
    } finally {
      await removeTempDir(dir);
    }
  });
});
