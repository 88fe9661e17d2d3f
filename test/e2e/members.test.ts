import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chamber, Member } from '../../src/contract/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { loggedIn, versionsOf, type LoggedIn, requestLog } from '../commands/logged-in.js';

let server: TestServer;
let cli: LoggedIn;
let chamber: Chamber;
const log = requestLog();

beforeAll(async () => {
  server = await startTestServer({ log: log.add });
  cli = await loggedIn(server);
  // the chamber with the most members is the first hq of the demo data; any with > 20 will do
  const hqs = await cli.json<Chamber[]>(['chambers', 'list', '--type', 'hq', '--per-page', '5']);
  for (const c of hqs) {
    const page = await cli.run(['members', 'list', c.id, '--per-page', '100']);
    if (page.stdout.trimEnd().split('\n').length > 25) {
      chamber = c;
      break;
    }
  }
  expect(chamber).toBeDefined();
});
afterAll(async () => {
  await cli?.cleanup();
  await server?.close();
});


describe('members list', () => {
  it('--json prints a page of the chamber members, via v1', async () => {
    let list: Member[] = [];
    const lines = await log.during(async () => (list = await cli.json(['members', 'list', chamber.id])));
    expect(list).toHaveLength(20);
    expect(list.every((m) => m.chamber_id === chamber.id)).toBe(true);
    expect(Object.keys(list[0]!).sort()).toEqual(['chamber_id', 'email', 'id', 'joined_at', 'membership_type', 'name', 'phone', 'status']);
    expect(versionsOf(lines, /\/members$/)).toEqual(['v1']);
  });

  it('--all --json equals the concatenation of the pages', async () => {
    const all = await cli.json<Member[]>(['members', 'list', chamber.id, '--all', '--per-page', '10']);
    const p1 = await cli.json<Member[]>(['members', 'list', chamber.id, '--per-page', '10', '--page', '1']);
    const p2 = await cli.json<Member[]>(['members', 'list', chamber.id, '--per-page', '10', '--page', '2']);
    expect(all.slice(0, 20)).toEqual([...p1, ...p2]);
    expect(all.length).toBeGreaterThan(25);
  });

  it('--status and --sort go to v2', async () => {
    let list: Member[] = [];
    const lines = await log.during(
      async () => (list = await cli.json(['members', 'list', chamber.id, '--status', 'active', '--sort', '-joined_at', '--all'])),
    );
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((m) => m.status === 'active')).toBe(true);
    const joined = list.map((m) => m.joined_at);
    expect(joined).toEqual([...joined].sort().reverse());
    expect(new Set(versionsOf(lines, /\/members$/))).toEqual(new Set(['v2']));
  });

  it('piped: TSV rows id, name, email, phone, membership_type, status, joined_at', async () => {
    const [m] = await cli.json<Member[]>(['members', 'list', chamber.id, '--per-page', '1']);
    const r = await cli.run(['members', 'list', chamber.id, '--per-page', '1']);
    expect(r.stdout).toBe(`${[m!.id, m!.name, m!.email, m!.phone ?? '', m!.membership_type, m!.status, m!.joined_at].join('\t')}\n`);
  });

  it('an unknown chamber is exit 4', async () => {
    const r = await cli.run(['members', 'list', 'ch_nope']);
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toBe('');
  });

  it('a bad --status or --sort is exit 2', async () => {
    expect((await cli.run(['members', 'list', chamber.id, '--status', 'gone'])).exitCode).toBe(2);
    const sort = await cli.run(['members', 'list', chamber.id, '--sort', 'created_at']);
    expect(sort.exitCode).toBe(2);
    expect(sort.stderr).toContain('--sort must be one of: name, -name, joined_at, -joined_at');
  });
});

describe('members add', () => {
  it('adds a member (v2) and prints it; it then appears in the list', async () => {
    const m = await cli.json<Member>([
      'members', 'add', chamber.id, '--name', 'Ada Lovelace', '--email', 'ada.e2e@example.org', '--phone', '+44 20 7946 0000', '--membership-type', 'premium',
    ]);
    expect(m).toMatchObject({
      chamber_id: chamber.id,
      name: 'Ada Lovelace',
      email: 'ada.e2e@example.org',
      phone: '+44 20 7946 0000',
      membership_type: 'premium',
      status: 'active',
    });
    const all = await cli.json<Member[]>(['members', 'list', chamber.id, '--all']);
    expect(all.find((x) => x.id === m.id)).toEqual(m);
  });

  it('the same e-mail again (any case) is rejected by the server: exit 5 naming email', async () => {
    const r = await cli.run(['members', 'add', chamber.id, '--name', 'Ada Again', '--email', 'ADA.e2e@Example.org', '--membership-type', 'standard']);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toMatch(/email/);
    expect(r.stdout).toBe('');
  });

  it('a bad e-mail is exit 5 and nothing is sent', async () => {
    const lines = await log.during(async () => {
      const r = await cli.run(['members', 'add', chamber.id, '--name', 'X', '--email', 'not-an-address', '--membership-type', 'standard']);
      expect(r.exitCode).toBe(5);
      expect(r.stderr).toBe('error: the member is not valid; nothing was sent\n  email (--email): must be a valid e-mail address\n');
    });
    expect(lines).toEqual([]);
  });

  it('an unknown --membership-type or a missing --email is exit 2', async () => {
    const bad = await cli.run(['members', 'add', chamber.id, '--name', 'X', '--email', 'x@example.org', '--membership-type', 'gold']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--membership-type must be one of: standard, premium, corporate, honorary');
    const missing = await cli.run(['members', 'add', chamber.id, '--name', 'X', '--membership-type', 'standard']);
    expect(missing.exitCode).toBe(2);
  });

  it('to an unknown chamber is exit 4', async () => {
    const r = await cli.run(['members', 'add', 'ch_nope', '--name', 'X', '--email', 'x@example.org', '--membership-type', 'standard']);
    expect(r.exitCode).toBe(4);
  });
});

describe('members get', () => {
  it('shows one member (v2), as the list has it; TSV field lines when piped', async () => {
    const [m] = await cli.json<Member[]>(['members', 'list', chamber.id, '--per-page', '1']);
    const lines = await log.during(async () => expect(await cli.json<Member>(['members', 'get', chamber.id, m!.id])).toEqual(m));
    expect(versionsOf(lines, /\/members\//)).toEqual(['v2']);
    const piped = await cli.run(['members', 'get', chamber.id, m!.id]);
    expect(piped.stdout.split('\n')).toContain(`email\t${m!.email}`);
  });

  it('an unknown member is exit 4 naming it', async () => {
    const r = await cli.run(['members', 'get', chamber.id, 'mb_nope']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('"mb_nope"');
    expect(r.stdout).toBe('');
  });
});

describe('what the interface cannot do', () => {
  it.each([
    [['members', 'delete', 'ch_x', 'mb_y'], /no delete for members .*nothing was done; .*chamberctl members get CHAMBER_ID MEMBER_ID/],
    [['members', 'update', 'ch_x', 'mb_y', '--name', 'Z'], /no update for members .*nothing was done/],
    [['chambers', 'delete', 'ch_x'], /no delete for chambers .*nothing was done; .*chamberctl chambers get ID/],
    [['chambers', 'update', 'ch_x'], /no update for chambers/],
    [['events', 'create', 'ch_x'], /no way to create events/],
  ])('%j says so in one line (exit 2) and sends nothing', async (args, message) => {
    const lines = await log.during(async () => {
      const r = await cli.run(args);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stdout).toBe('');
    });
    expect(lines).toEqual([]);
  });

  it('the hidden verbs stay out of --help', async () => {
    const help = await cli.run(['members', '--help']);
    expect(help.stdout).toMatch(/\n {2}get (\[options\] )?<chamber-id> <member-id>/);
    expect(help.stdout).not.toMatch(/\n {2}(delete|update)\b/);
  });
});
