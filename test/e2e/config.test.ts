// `chamberctl config get|set|list`: a profile's settings changed without the secret, which
// is never shown; a new base URL drops the tokens of the old server.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedIn, type LoggedIn } from '../commands/logged-in.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { runOnPty } from '../helpers/pty.js';

let server: TestServer;
let cli: LoggedIn;
beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
  cli = await loggedIn(server);
  expect((await cli.run(['chambers', 'list'])).exitCode).toBe(0); // caches a token
});
afterAll(async () => {
  await cli?.cleanup();
  await server?.close();
});

const configFile = () => readFile(join(cli.dir, 'config.json'), 'utf8');

describe('chamberctl config', () => {
  it('list shows the settings, never the secret', async () => {
    const list = await cli.json(['config', 'list']);
    expect(list).toEqual({
      profile: 'default',
      'base-url': server.baseUrl,
      'api-version': 'auto',
      output: 'auto',
      prompt: 'enabled',
      'client-id': server.clientId,
      'logged-in': true,
    });
    const plain = await cli.run(['config', 'list']);
    expect(plain.stdout).toBe(
      `base-url\t${server.baseUrl}\napi-version\tauto\noutput\tauto\nprompt\tenabled\nclient-id\t${server.clientId}\nlogged-in\ttrue\n`,
    );
    expect(plain.stdout + plain.stderr).not.toContain(server.clientSecret);
    expect((await cli.run(['config', 'get', 'base-url'])).stdout).toBe(`${server.baseUrl}\n`);
  });

  it('config --help and config set --help list every key, output and prompt included', async () => {
    const help = (await cli.run(['config', '--help'])).stdout;
    const setHelp = (await cli.run(['config', 'set', '--help'])).stdout;
    for (const key of ['base-url', 'api-version', 'output', 'prompt']) {
      expect(help).toMatch(new RegExp(`^ {4}${key} +\\S`, 'm'));
      expect(setHelp).toMatch(new RegExp(`^ {4}${key} +\\S`, 'm'));
    }
    expect(help).toMatch(/^ {4}output +auto\|table\|tsv\|json\|csv /m);
    expect(help).toMatch(/^ {4}client-id +/m);
    expect(setHelp).not.toMatch(/^ {4}client-id +/m);
  });

  it('config list on a terminal is an aligned table that names the profile', async () => {
    const r = await runOnPty(['config', 'list', '--no-color'], { configDir: cli.dir, steps: [], columns: 100 });
    expect(r.exitCode, r.output).toBe(0);
    const lines = r.output.trimEnd().split('\n');
    expect(lines[0]).toBe('Profile default (the default profile)');
    expect(lines.slice(2)).toEqual([
      'SETTING      VALUE',
      `base-url     ${server.baseUrl}`,
      'api-version  auto',
      'output       auto',
      'prompt       enabled',
      `client-id    ${server.clientId}`,
      'logged-in    true',
    ]);
    expect(r.output).not.toContain(server.clientSecret);
  });

  it('set api-version pins and unpins the profile, and the v1-pinned error names it', async () => {
    expect((await cli.run(['config', 'set', 'api-version', 'v1'])).exitCode).toBe(0);
    expect((await cli.run(['config', 'get', 'api-version'])).stdout).toBe('v1\n');
    const pinned = await cli.run(['chambers', 'list', '--status', 'active']);
    expect(pinned.exitCode).toBe(2);
    expect(pinned.stderr).toContain('chamberctl config set api-version auto');
    expect((await cli.run(['config', 'set', 'api-version', 'auto'])).exitCode).toBe(0);
    expect((await cli.run(['chambers', 'list', '--status', 'active'])).exitCode).toBe(0);
    // the credentials stayed
    expect(await configFile()).toContain(server.clientSecret);
  });

  it('set base-url normalises it and drops the tokens of the old server; on its origin the credentials stay', async () => {
    expect(await configFile()).toContain('accessToken');
    const r = await cli.run(['config', 'set', 'base-url', `${server.baseUrl}/`, '--json']);
    expect(JSON.parse(r.stdout)).toEqual({ profile: 'default', key: 'base-url', value: server.baseUrl });
    expect(await configFile()).toContain('accessToken'); // same URL: nothing changed
    const moved = await cli.run(['config', 'set', 'base-url', `${server.baseUrl}/directory`, '--yes']);
    expect(moved.stderr).toBe(`profile "default": base-url = ${server.baseUrl}/directory (cached tokens of the old server removed)\n`);
    expect(await configFile()).not.toContain('accessToken');
    expect(await configFile()).toContain(server.clientSecret);
    await cli.run(['config', 'set', 'base-url', server.baseUrl]);
    expect((await cli.run(['chambers', 'list'])).exitCode).toBe(0); // logs in again by itself
  });

  it('set base-url of another origin forgets the saved secret, unless --keep-secret', async () => {
    const other = 'http://127.0.0.1:1';
    const kept = await cli.run(['config', 'set', 'base-url', other, '--keep-secret', '--yes']);
    expect(kept.exitCode).toBe(0);
    expect(await configFile()).toContain(server.clientSecret);
    await cli.run(['config', 'set', 'base-url', server.baseUrl, '--keep-secret', '--yes']);
    expect((await cli.run(['chambers', 'list'])).exitCode).toBe(0);

    const moved = await cli.run(['config', 'set', 'base-url', other, '--yes']);
    expect(moved.exitCode).toBe(0);
    expect(moved.stderr).toBe(
      `profile "default": base-url = ${other} (another origin: the saved secret and cached tokens removed; \`chamberctl login\` asks for its secret)\n`,
    );
    expect(await configFile()).not.toContain(server.clientSecret);
    expect(await configFile()).not.toContain('accessToken');
    expect(await cli.json(['config', 'get', 'logged-in'])).toBe(false);
    expect(await cli.json(['config', 'get', 'client-id'])).toBe(server.clientId); // login asks only for the secret
    const wrongKey = await cli.run(['config', 'set', 'output', 'csv', '--keep-secret']);
    expect([wrongKey.exitCode, wrongKey.stderr]).toEqual([2, 'error: --keep-secret goes with config set base-url only\n']);
    // back as it was for the tests after this one
    const again = await cli.run(['login', '--base-url', server.baseUrl, '--client-secret', server.clientSecret]);
    expect(again.exitCode, again.stderr).toBe(0);
  });

  it("set output makes it the lists' default output, which --format and --json still override", async () => {
    expect((await cli.run(['config', 'set', 'output', 'csv'])).exitCode).toBe(0);
    const csv = await cli.run(['chambers', 'list', '--per-page', '2']);
    expect(csv.stdout.split('\r\n')[0]).toBe('id,name,type,hq_id,status,street,postal_code,city,country,created_at');
    expect(JSON.parse((await cli.run(['chambers', 'list', '--per-page', '2', '--json'])).stdout)).toHaveLength(2);
    expect((await cli.run(['chambers', 'list', '--per-page', '2', '--format', 'tsv'])).stdout.split('\n')[0]).toMatch(/^ch_\S+\t/);
    expect((await cli.run(['config', 'set', 'output', 'auto'])).exitCode).toBe(0);
    expect((await cli.run(['chambers', 'list', '--per-page', '2'])).stdout).toMatch(/^ch_\S+\t/); // piped: TSV again
    expect((await cli.run(['config', 'set', 'prompt', 'disabled'])).exitCode).toBe(0);
    expect((await cli.run(['config', 'get', 'prompt'])).stdout).toBe('disabled\n');
    await cli.run(['config', 'set', 'prompt', 'enabled']);
  });

  it.each([
    [['config', 'get', 'colour'], /unknown setting "colour"; settings: base-url, api-version, output, prompt, client-id, logged-in/],
    [['config', 'set', 'output', 'yaml'], /output must be one of: auto, table, tsv, json, csv/],
    [['config', 'set', 'api-version', 'v3'], /api-version must be one of: auto, v1, v2/],
    [['config', 'set', 'base-url', 'ftp://x'], /base-url must be an http/],
    [['config', 'set', 'client-id', 'x'], /client-id is set by `chamberctl login`/],
  ])('%j is a usage error (exit 2)', async (args, message) => {
    const r = await cli.run(args);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });

  it('a profile that does not exist is exit 3 with the login hint', async () => {
    const r = await cli.run(['config', 'list', '--profile', 'nope']);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('chamberctl login --profile nope');
  });
});
