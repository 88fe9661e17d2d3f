// --format csv on the lists, and the round trip: members exported from one chamber as CSV
// and imported into another are the same members.
import { writeFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

const CLIENT = { id: 'csv-client', secret: 'CsvSecret0123456789' };
const FLAGSHIP = 'ch_ms2fLiZry7iy3IuE';
let dir: string;
let cfg: string;
let server: ServeProcess;
const cli = (args: string[], input?: string) => runCli(args, { configDir: cfg, ...(input !== undefined ? { input } : {}) });
const rows = (text: string) => parse(text, { columns: true }) as Record<string, string>[];

beforeAll(async () => {
  dir = await makeTempDir('chamberctl-csv-');
  cfg = `${dir}/cfg`;
  server = await startServeProcess(['--port', '0', '--db', ':memory:', '--client-id', CLIENT.id, '--client-secret', CLIENT.secret, '--quiet'], {
    CHAMBERCTL_CONFIG_DIR: `${dir}/cfg-serve`,
  });
  expect((await cli(['login', '--base-url', server.baseUrl, '--client-id', CLIENT.id, '--client-secret-stdin'], CLIENT.secret)).exitCode).toBe(0);
});
afterAll(async () => {
  await server?.stop();
  await removeTempDir(dir);
});

describe('--format csv', () => {
  it('members exported from one chamber import into another unchanged', async () => {
    // a name that needs quoting, and a phone
    const add = await cli(['members', 'add', FLAGSHIP, '--name', 'O\'Neil, "Ann"', '--email', 'ann.oneil@example.org', '--phone', '+32 9 123 45 67', '--membership-type', 'premium']);
    expect(add.exitCode, add.stderr).toBe(0);
    const exported = await cli(['members', 'list', FLAGSHIP, '--all', '--format', 'csv']);
    expect(exported.exitCode, exported.stderr).toBe(0);
    expect(exported.stdout.split('\r\n')[0]).toBe('name,email,phone,membership_type,status,joined_at,id,chamber_id');
    // a leading + would be a formula in a spreadsheet: written with a ' the import takes off
    expect(exported.stdout).toContain('"O\'Neil, ""Ann""",ann.oneil@example.org,\'+32 9 123 45 67,premium');
    const before = rows(exported.stdout);
    expect(before.length).toBeGreaterThan(100);
    await writeFile(`${dir}/members.csv`, exported.stdout);

    const hq = JSON.parse((await cli(['chambers', 'create', '--name', 'CSV HQ', '--type', 'hq', '--street', '1 Quay', '--city', 'Ghent', '--country', 'BE', '--json'])).stdout);
    const imported = await cli(['members', 'import', hq.id, `${dir}/members.csv`, '--json']);
    expect(imported.exitCode, imported.stderr).toBe(0);
    const summary = JSON.parse(imported.stdout);
    expect(summary).toMatchObject({ created: before.length, invalid: 0, duplicate: 0, failed: 0 });
    expect(summary.ignored_columns).toEqual(['status', 'joined_at', 'id', 'chamber_id']);

    const after = rows((await cli(['members', 'list', hq.id, '--all', '--format', 'csv'])).stdout);
    const fields = (r: Record<string, string>) => [r.name, r.email, r.phone, r.membership_type];
    expect(after.map(fields).sort()).toEqual(before.map(fields).sort());
  });

  it('quotes every field with a line break, so that names with LF, CR, CRLF, quotes, commas, a would-be formula and non-BMP characters make the round trip', async () => {
    const formulas = ['=HYPERLINK("http://x","y")', '+1+1', '-2+3', '@SUM(1)', "'=already quoted", "''+twice"];
    const names = ['Two\nLines', 'Carriage\rReturn', 'Windows\r\nBreak', 'Quote "Q" Inc', 'Comma, Ltd', ...formulas, 'Clef 𝄞 and 😀', "O'Brien", 'a-b=c'];
    const hq = async (name: string) =>
      JSON.parse((await cli(['chambers', 'create', '--name', name, '--type', 'hq', '--street', '1 Quay', '--city', 'Ghent', '--country', 'BE', '--json'])).stdout) as { id: string };
    const from = await hq('Hard Names HQ');
    for (const [i, name] of names.entries()) {
      const add = await cli(['members', 'add', from.id, '--name', name, '--email', `hard${i}@example.org`, '--membership-type', 'standard']);
      expect(add.exitCode, add.stderr).toBe(0);
    }
    const exported = await cli(['members', 'list', from.id, '--all', '--format', 'csv']);
    expect(exported.exitCode, exported.stderr).toBe(0);
    // RFC 4180: a line break inside a field only within quotes; a would-be formula with a leading '
    expect(exported.stdout).toContain('"Two\nLines",hard0@example.org');
    expect(exported.stdout).toContain('"Carriage\rReturn",hard1@example.org');
    expect(exported.stdout).toContain('"Windows\r\nBreak",hard2@example.org');
    expect(exported.stdout).toContain('"\'=HYPERLINK(""http://x"",""y"")",hard5@example.org');
    const quoted = (n: string) => (formulas.includes(n) ? `'${n}` : n);
    expect(rows(exported.stdout).map((r) => r.name)).toEqual(names.map(quoted));
    // --raw: exactly as stored
    const raw = await cli(['members', 'list', from.id, '--all', '--format', 'csv', '--raw']);
    expect(rows(raw.stdout).map((r) => r.name)).toEqual(names);
    const rawTsv = await cli(['members', 'list', from.id, '--raw']);
    expect([rawTsv.exitCode, rawTsv.stderr]).toEqual([2, 'error: --raw goes with --format csv only (this output is tsv)\n']);
    await writeFile(`${dir}/hard.csv`, exported.stdout);

    const to = await hq('Hard Names Copy');
    const imported = await cli(['members', 'import', to.id, `${dir}/hard.csv`, '--json']);
    expect(imported.exitCode, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ created: names.length, invalid: 0 });
    const listed = JSON.parse((await cli(['members', 'list', to.id, '--all', '--json'])).stdout) as { name: string; email: string }[];
    // (the import sends rows concurrently: compared by address, not in joining order)
    expect(listed.map((m) => [m.email, m.name]).sort()).toEqual(names.map((n, i) => [`hard${i}@example.org`, n]).sort());
  });

  it('chambers and events lists too; an empty list is its header; --json with another --format is a usage error', async () => {
    const chambers = rows((await cli(['chambers', 'list', '--type', 'hq', '--per-page', '5', '--format', 'csv'])).stdout);
    expect(chambers).toHaveLength(5);
    expect(chambers.every((c) => c.type === 'hq' && c.hq_id === '')).toBe(true);
    const events = await cli(['events', 'list', FLAGSHIP, '--format', 'csv']);
    expect(events.stdout.split('\r\n')[0]).toBe('id,chamber_id,title,status,starts_at,ends_at,location');
    const none = await cli(['members', 'list', FLAGSHIP, '--status', 'pending', '--page', '9999', '--format', 'csv']);
    expect(none.stdout).toBe('name,email,phone,membership_type,status,joined_at,id,chamber_id\r\n');
    const both = await cli(['members', 'list', FLAGSHIP, '--json', '--format', 'csv']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toMatch(/^error: --json and --format csv/);
    const json = await cli(['chambers', 'list', '--per-page', '2', '--format', 'json']);
    expect(JSON.parse(json.stdout)).toHaveLength(2);
  });
});
