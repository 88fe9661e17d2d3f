// The work functions of the resource commands against an in-memory DirectoryApi: which
// version and query each call uses, and that nothing is sent when a check fails. (What the
// server does with them is covered by test/e2e against the real server.)
import { describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../../src/core/exit-codes.js';
import { chambersCreate, parseChambersCreate } from '../../src/commands/chambers/create.js';
import { chambersGet, parseChambersGet } from '../../src/commands/chambers/get.js';
import { chambersList, parseChambersList } from '../../src/commands/chambers/list.js';
import { eventsList, parseEventsList } from '../../src/commands/events/list.js';
import { membersAdd, parseMembersAdd } from '../../src/commands/members/add.js';
import { membersList, parseMembersList } from '../../src/commands/members/list.js';
import { chamber, event, fakeSession, io, member, outputFor } from '../output/fakes.js';

const chambers = Array.from({ length: 45 }, (_, i) => chamber(i));

async function usageFailure(p: Promise<unknown>): Promise<CliError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CliError);
  expect((err as CliError).exitCode).toBe(ExitCode.USAGE);
  return err as CliError;
}

describe('chambers list', () => {
  it('auto: a plain page goes to v1 with paging only', async () => {
    const s = fakeSession({ chambers });
    const t = io();
    await chambersList(parseChambersList({ page: '2', perPage: '10' }, {}), s, await outputFor(t));
    expect(s.calls).toEqual([{ method: 'listChambers', version: 'v1', args: [{ page: '2', per_page: '10' }] }]);
    expect(t.stdout.text().trimEnd().split('\n')).toHaveLength(10);
  });

  it('auto: filters and sort go to v2', async () => {
    const s = fakeSession({ chambers });
    await chambersList(parseChambersList({ status: 'active', sort: 'name' }, {}), s, await outputFor(io()));
    expect(s.calls[0]).toMatchObject({ version: 'v2', args: [{ 'filter[status]': 'active', sort: 'name', page: '1' }] });
  });

  it('--all walks every page of 100', async () => {
    const s = fakeSession({ chambers: Array.from({ length: 230 }, (_, i) => chamber(i)) });
    const t = io();
    await chambersList(parseChambersList({ all: true }, {}), s, await outputFor(t, { json: true }));
    expect(s.calls.map((c) => c.args[0])).toEqual([
      { page: '1', per_page: '100' },
      { page: '2', per_page: '100' },
      { page: '3', per_page: '100' },
    ]);
    expect(JSON.parse(t.stdout.text())).toHaveLength(230);
  });

  it('a profile pinned to v1 serves plain reads and refuses --status before sending anything', async () => {
    const s = fakeSession({ chambers }, { apiVersion: 'v1', profileName: 'legacy' });
    await chambersList(parseChambersList({}, {}), s, await outputFor(io()));
    expect(s.calls[0]!.version).toBe('v1');
    const err = await usageFailure(chambersList(parseChambersList({ status: 'active' }, {}), s, await outputFor(io())));
    expect(err.message).toContain('--status needs API v2, but profile "legacy" is pinned to v1');
    expect(s.calls).toHaveLength(1);
  });

  it('pinned v2 sends even plain reads to v2', async () => {
    const s = fakeSession({ chambers }, { apiVersion: 'v2' });
    await chambersList(parseChambersList({}, { apiVersion: 'v2' }), s, await outputFor(io()));
    expect(s.calls[0]!.version).toBe('v2');
  });
});

describe('chambers get', () => {
  it('--include goes to v2, a plain get to v1', async () => {
    const s = fakeSession({ chambers });
    const id = chambers[3]!.id;
    await chambersGet(parseChambersGet(id, {}, {}), s, await outputFor(io()));
    await chambersGet(parseChambersGet(id, { include: 'members' }, {}), s, await outputFor(io()));
    expect(s.calls.map((c) => [c.version, c.args])).toEqual([
      ['v1', [id, {}]],
      ['v2', [id, { include: 'members' }]],
    ]);
  });
});

describe('writes', () => {
  const createOpts = { name: 'New', type: 'hq', street: 'S 1', city: 'Bonn', country: 'DE' };

  it('chambers create posts the checked body and prints the result', async () => {
    const s = fakeSession();
    const t = io();
    await chambersCreate(parseChambersCreate(createOpts, {}), s, await outputFor(t, { json: true }));
    expect(s.calls).toEqual([
      { method: 'createChamber', version: 'v2', args: [{ name: 'New', type: 'hq', address: { street: 'S 1', city: 'Bonn', postal_code: null, country: 'DE' } }] },
    ]);
    expect(JSON.parse(t.stdout.text()).name).toBe('New');
  });

  it('create and add are refused on a v1 profile without sending', async () => {
    const s = fakeSession({}, { apiVersion: 'v1' });
    expect((await usageFailure(chambersCreate(parseChambersCreate(createOpts, {}), s, await outputFor(io())))).message).toMatch(
      /^chambers create needs API v2/,
    );
    const add = parseMembersAdd('ch_1', { name: 'A', email: 'a@example.org', membershipType: 'standard' }, {});
    expect((await usageFailure(membersAdd(add, s, await outputFor(io())))).message).toMatch(/^members add needs API v2/);
    expect(s.calls).toEqual([]);
  });

  it('members add posts to the chamber', async () => {
    const s = fakeSession();
    const t = io();
    await membersAdd(parseMembersAdd('ch_9', { name: 'A', email: 'a@example.org', phone: '+49 1', membershipType: 'corporate' }, {}), s, await outputFor(t));
    expect(s.calls[0]).toMatchObject({ method: 'addMember', args: ['ch_9', { name: 'A', email: 'a@example.org', phone: '+49 1', membership_type: 'corporate' }] });
    expect(t.stdout.text()).toContain('email\ta@example.org\n');
  });
});

describe('members and events', () => {
  it('members list: v1 for paging, v2 for --sort', async () => {
    const s = fakeSession({ members: [member(1), member(2)] });
    await membersList(parseMembersList('ch_1', {}, {}), s, await outputFor(io()));
    await membersList(parseMembersList('ch_1', { sort: '-joined_at' }, {}), s, await outputFor(io()));
    expect(s.calls.map((c) => c.version)).toEqual(['v1', 'v2']);
    expect(s.calls[1]!.args).toEqual(['ch_1', { sort: '-joined_at', page: '1' }]);
  });

  it('events list always uses v2 and is refused on a v1 profile', async () => {
    const s = fakeSession({ events: [event(1)] });
    const t = io();
    await eventsList(parseEventsList('ch_1', { status: 'past' }, {}), s, await outputFor(t, { json: true }));
    expect(s.calls[0]).toMatchObject({ method: 'listEvents', args: ['ch_1', { 'filter[status]': 'past', page: '1' }] });
    expect(JSON.parse(t.stdout.text())).toEqual([event(1)]);
    const v1 = fakeSession({}, { apiVersion: 'v1' });
    await usageFailure(eventsList(parseEventsList('ch_1', {}, {}), v1, await outputFor(io())));
    expect(v1.calls).toEqual([]);
  });
});
