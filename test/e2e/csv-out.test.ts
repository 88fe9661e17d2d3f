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
    expect(exported.stdout).toContain('"O\'Neil, ""Ann""",ann.oneil@example.org,+32 9 123 45 67,premium');
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
