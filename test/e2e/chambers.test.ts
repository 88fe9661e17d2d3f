import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chamber } from '../../src/contract/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { loggedIn, versionsOf, type LoggedIn, requestLog } from '../commands/logged-in.js';

let server: TestServer;
let cli: LoggedIn;
const log = requestLog();

beforeAll(async () => {
  server = await startTestServer({ log: log.add });
  cli = await loggedIn(server);
});
afterAll(async () => {
  await cli?.cleanup();
  await server?.close();
});


describe('chambers list', () => {
  it('--json prints the first page as an array of chambers, via v1', async () => {
    let list: Chamber[] = [];
    const lines = await log.during(async () => (list = await cli.json(['chambers', 'list'])));
    expect(list).toHaveLength(20);
    expect(Object.keys(list[0]!).sort()).toEqual(['address', 'created_at', 'hq_id', 'id', 'name', 'status', 'type']);
    expect(versionsOf(lines, /^\/chambers$/)).toEqual(['v1']);
  });

  it('piped without --json prints TSV rows, no header, in the documented order', async () => {
    const [first] = await cli.json<Chamber[]>(['chambers', 'list', '--per-page', '3']);
    const r = await cli.run(['chambers', 'list', '--per-page', '3']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe(''); // no footer, spinner or colour without a terminal
    const rows = r.stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    expect(rows).toHaveLength(3);
    const c = first!;
    expect(rows[0]).toEqual([
      c.id,
      c.name,
      c.type,
      c.status,
      c.hq_id ?? '',
      c.address.street,
      c.address.postal_code ?? '',
      c.address.city,
      c.address.country,
      c.created_at,
    ]);
    expect(r.stdout).not.toContain('\u001b[');
  });

  it('--page and --per-page select a page', async () => {
    const all = await cli.json<Chamber[]>(['chambers', 'list', '--per-page', '10', '--page', '1']);
    const second = await cli.json<Chamber[]>(['chambers', 'list', '--per-page', '5', '--page', '2']);
    expect(second).toEqual(all.slice(5, 10));
  });

  it('--all --json is exactly the concatenation of the pages', async () => {
    const everything = await cli.json<Chamber[]>(['chambers', 'list', '--all']);
    const pages: Chamber[] = [];
    for (let page = 1; ; page++) {
      const items = await cli.json<Chamber[]>(['chambers', 'list', '--per-page', '100', '--page', String(page)]);
      if (items.length === 0) break;
      pages.push(...items);
    }
    expect(everything.length).toBeGreaterThan(100);
    expect(everything).toEqual(pages);
    expect(new Set(everything.map((c) => c.id)).size).toBe(everything.length);
  });

  it('--all with --per-page walks smaller pages to the same result; TSV has one row per chamber', async () => {
    const everything = await cli.json<Chamber[]>(['chambers', 'list', '--all']);
    const lines = await log.during(async () => {
      const r = await cli.run(['chambers', 'list', '--all', '--per-page', '50']);
      expect(r.exitCode).toBe(0);
      expect(r.stdout.trimEnd().split('\n').map((l) => l.split('\t')[0])).toEqual(everything.map((c) => c.id));
    });
    expect(versionsOf(lines, /^\/chambers$/)).toHaveLength(Math.ceil(everything.length / 50));
  });

  it('--type, --status and --sort filter and order via v2', async () => {
    let list: Chamber[] = [];
    const lines = await log.during(
      async () => (list = await cli.json(['chambers', 'list', '--type', 'hq', '--status', 'active', '--sort', '-name', '--all'])),
    );
    expect(list.length).toBeGreaterThan(1);
    expect(list.every((c) => c.type === 'hq' && c.status === 'active')).toBe(true);
    const names = list.map((c) => c.name.toLowerCase());
    expect(names).toEqual([...names].sort().reverse());
    expect(new Set(versionsOf(lines, /^\/chambers$/))).toEqual(new Set(['v2']));
  });

  it('--sort created_at sorts ascending', async () => {
    const list = await cli.json<Chamber[]>(['chambers', 'list', '--sort', 'created_at', '--per-page', '50']);
    const times = list.map((c) => c.created_at);
    expect(times).toEqual([...times].sort());
  });

  it('a page past the end is an empty array', async () => {
    expect(await cli.json(['chambers', 'list', '--page', '9999'])).toEqual([]);
  });

  it.each([
    [['--type', 'bogus'], /--type must be one of: hq, subsidiary, not "bogus"/],
    [['--status', 'closed'], /--status must be one of: active, inactive, pending, not "closed"/],
    [['--sort', 'size'], /--sort must be one of: name, -name, created_at, -created_at/],
    [['--page', 'abc'], /--page must be a positive integer/],
    [['--per-page', '0'], /--per-page must be a positive integer/],
    [['--page', '2', '--all'], /cannot be used with/],
  ])('rejects %j with exit 2 before any request', async (args, message) => {
    const lines = await log.during(async () => {
      const r = await cli.run(['chambers', 'list', ...args]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stdout).toBe('');
    });
    expect(lines).toEqual([]);
  });
});

describe('chambers get', () => {
  let hq: Chamber;
  beforeAll(async () => {
    const [first] = await cli.json<Chamber[]>(['chambers', 'list', '--type', 'hq', '--per-page', '1']);
    hq = first!;
  });

  it('--json prints the chamber object, via v1', async () => {
    let got: Chamber | undefined;
    const lines = await log.during(async () => (got = await cli.json(['chambers', 'get', hq.id])));
    expect(got).toEqual(hq);
    expect(versionsOf(lines, /^\/chambers\/[^/]+$/)).toEqual(['v1']);
  });

  it('--include members,events embeds both, via v2', async () => {
    let got: Chamber | undefined;
    const lines = await log.during(async () => (got = await cli.json(['chambers', 'get', hq.id, '--include', 'members,events'])));
    expect(Array.isArray(got!.members)).toBe(true);
    expect(Array.isArray(got!.events)).toBe(true);
    expect(got!.members!.length).toBeGreaterThan(0);
    expect(got!.members!.every((m) => m.chamber_id === hq.id)).toBe(true);
    expect(versionsOf(lines, /^\/chambers\/[^/]+$/)).toEqual(['v2']);
    const onlyMembers = await cli.json<Chamber>(['chambers', 'get', hq.id, '--include', 'members']);
    expect(onlyMembers.events).toBeUndefined();
  });

  it('piped: field<TAB>value lines, and member/event lines for included items', async () => {
    const r = await cli.run(['chambers', 'get', hq.id, '--include', 'members']);
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`id\t${hq.id}`);
    expect(lines).toContain(`name\t${hq.name}`);
    expect(lines).toContain(`hq_id\t`);
    expect(lines.filter((l) => l.startsWith('member\t')).length).toBeGreaterThan(0);
  });

  it('an unknown id is exit 4 with the server message', async () => {
    const r = await cli.run(['chambers', 'get', 'ch_doesnotexist']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toMatch(/^error: .*not found/);
    expect(r.stdout).toBe('');
    const json = await cli.run(['chambers', 'get', 'ch_doesnotexist', '--json']);
    expect(json.exitCode).toBe(4);
    expect(json.stdout).toBe('');
  });

  it('an id with URL characters stays one path segment', async () => {
    const r = await cli.run(['chambers', 'get', '../chambers?x=1']);
    expect(r.exitCode).toBe(4);
  });

  it('--include with an unknown relation is exit 2', async () => {
    const r = await cli.run(['chambers', 'get', hq.id, '--include', 'staff']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--include must be a comma-separated list of: members, events');
  });
});

describe('chambers create', () => {
  const base = ['chambers', 'create', '--street', 'Unter den Linden 1', '--city', 'Berlin', '--country', 'de'];

  it('creates an hq and a subsidiary (v2) and prints the objects', async () => {
    const hq = await cli.json<Chamber>([...base, '--name', 'E2E Berlin HQ', '--type', 'hq', '--postal-code', '10117']);
    expect(hq).toMatchObject({
      name: 'E2E Berlin HQ',
      type: 'hq',
      hq_id: null,
      status: 'active',
      address: { street: 'Unter den Linden 1', city: 'Berlin', postal_code: '10117', country: 'DE' },
    });
    const sub = await cli.json<Chamber>([...base, '--name', 'E2E Potsdam', '--type', 'subsidiary', '--hq-id', hq.id]);
    expect(sub.hq_id).toBe(hq.id);
    expect(await cli.json(['chambers', 'get', sub.id])).toEqual(sub);
  });

  it('piped without --json prints field<TAB>value lines, so the id is easy to cut out', async () => {
    const r = await cli.run([...base, '--name', 'E2E TSV', '--type', 'hq']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^id\tch_\S+\n/);
  });

  it('a payload failing the contract is exit 5 with every field, and nothing is sent', async () => {
    const lines = await log.during(async () => {
      const r = await cli.run(['chambers', 'create', '--name', 'Bad', '--type', 'subsidiary', '--street', 'x', '--city', 'y', '--country', 'XX']);
      expect(r.exitCode).toBe(5);
      expect(r.stderr).toContain('error: the chamber is not valid; nothing was sent');
      expect(r.stderr).toContain('hq_id (--hq-id): is required for a subsidiary');
      expect(r.stderr).toContain('address.country (--country): must be an ISO 3166-1 alpha-2 country code');
    });
    expect(lines).toEqual([]);
  });

  it('a subsidiary of an unknown hq is rejected by the server: exit 5 with its field message', async () => {
    const r = await cli.run([...base, '--name', 'Orphan', '--type', 'subsidiary', '--hq-id', 'ch_nope']);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toMatch(/hq_id/);
  });

  it('a missing required option or a bad --type is exit 2', async () => {
    const missing = await cli.run(['chambers', 'create', '--name', 'X', '--type', 'hq', '--city', 'Y', '--country', 'DE']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("required option '--street <street>' not specified");
    const bad = await cli.run([...base, '--name', 'X', '--type', 'branch']);
    expect(bad.exitCode).toBe(2);
  });
});
