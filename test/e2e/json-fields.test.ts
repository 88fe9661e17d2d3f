// gh's habits: `--json FIELDS` selects fields; `--json` alone stays the flag scripts know.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chamber, Member } from '../../src/contract/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { loggedIn, type LoggedIn } from '../commands/logged-in.js';

let server: TestServer;
let cli: LoggedIn;
let hq: Chamber;

beforeAll(async () => {
  server = await startTestServer({ seed: 'demo' });
  cli = await loggedIn(server);
  hq = (await cli.json<Chamber[]>(['chambers', 'list', '--type', 'hq', '--per-page', '1']))[0]!;
});
afterAll(async () => {
  await cli?.cleanup();
  await server?.close();
});

const json = async (args: string[]) => {
  const r = await cli.run(args);
  expect(r.stderr).toBe('');
  expect(r.exitCode).toBe(0);
  return JSON.parse(r.stdout);
};

describe('--json FIELDS', () => {
  it('chambers list --json id,name prints only those fields, in that order (also --json=id,name)', async () => {
    const full = await cli.json<Chamber[]>(['chambers', 'list', '--per-page', '3']);
    const picked = await json(['chambers', 'list', '--per-page', '3', '--json', 'id,name']);
    expect(picked).toEqual(full.map((c) => ({ id: c.id, name: c.name })));
    expect(Object.keys(picked[0])).toEqual(['id', 'name']);
    expect(await json(['chambers', 'list', '--per-page', '3', '--json=id,name'])).toEqual(picked);
    expect(await json(['--json', 'id,name', 'chambers', 'list', '--per-page', '3']).catch(() => 'refused')).toBe('refused');
  });

  it('the word after --json is still the argument when the command needs it', async () => {
    const plain = await json(['members', 'list', '--json', hq.id, '--per-page', '2']);
    expect(Object.keys(plain[0]).sort()).toEqual(['chamber_id', 'email', 'id', 'joined_at', 'membership_type', 'name', 'phone', 'status']);
    const before = await json(['members', 'list', '--json', 'id,email', hq.id, '--per-page', '2']);
    const after = await json(['members', 'list', hq.id, '--json', 'id,email', '--per-page', '2']);
    expect(before).toEqual(plain.map((m: Member) => ({ id: m.id, email: m.email })));
    expect(after).toEqual(before);
    expect(await json(['--json', 'chambers', 'get', hq.id])).toMatchObject({ id: hq.id, name: hq.name });
  });

  it('each record command lists its fields in its help', async () => {
    for (const [args, fields] of [
      [['chambers', 'get', '--help'], 'id, name, type, status, hq_id, address, created_at, members, events'],
      [['members', 'add', '--help'], 'id, chamber_id, name, email, phone, membership_type, status, joined_at'],
      [['events', 'list', '--help'], 'id, chamber_id, title, status, starts_at, ends_at, location'],
    ] as const) {
      const r = await cli.run([...args]);
      expect(r.stdout).toContain(`JSON fields (--json FIELDS, comma-separated): ${fields}\n`);
    }
  });

  it('works on get, with --include, and with --all', async () => {
    expect(await json(['chambers', 'get', hq.id, '--json', 'name,address'])).toEqual({ name: hq.name, address: hq.address });
    const withMembers = await json(['chambers', 'get', hq.id, '--include', 'members', '--json', 'id,members']);
    expect(Object.keys(withMembers)).toEqual(['id', 'members']);
    const all = await json(['chambers', 'list', '--all', '--json', 'id']);
    expect(all.length).toBeGreaterThan(100);
    expect(all.every((c: object) => Object.keys(c).join() === 'id')).toBe(true);
  });

  it.each([
    [['chambers', 'list', '--json', 'id,nme'], 'error: --json: "nme" is not a field of a chamber; fields: id, name, type, status, hq_id, address, created_at'],
    [['chambers', 'list', '--json', 'Name'], 'error: --json: "Name" is not a field of a chamber; fields: id, name, type, status, hq_id, address, created_at'],
    [['members', 'get', 'ch_x', 'mb_y', '--json', 'id,Email'], 'error: --json: "Email" is not a field of a member; fields: id, chamber_id, name, email, phone, membership_type, status, joined_at'],
    [['events', 'list', 'ch_x', 'ch_y', '--json', 'id'], "error: too many arguments for 'list': expected 1 argument, got 3"],
    [['members', 'list', 'ch_x', '--json', 'Email,id'], 'error: --json: "Email" is not a field of a member; fields: id, chamber_id, name, email, phone, membership_type, status, joined_at'],
    [['chambers', 'list', 'extra'], "error: too many arguments for 'list': expected 0 arguments, got 1 (\"extra\"); to select fields of the JSON, put them right after --json: --json id,name"],
    [['completion', 'bash', '--jq', '.'], "error: unknown option '--jq': this command prints no JSON to filter; the commands that print JSON take it (chamberctl help output)"],
    [['chambers', 'list', '--json', 'id', '--format', 'csv'], 'error: --json and --format csv ask for two outputs'],
  ])('%j is a usage error (exit 2) with a hint', async (args, message) => {
    const before = server.tokenRequests();
    const r = await cli.run(args);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
    expect(server.tokenRequests()).toBe(before);
  });
});
