import { describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../../src/core/exit-codes.js';
import { parseChambersCreate } from '../../src/commands/chambers/create.js';
import { parseChambersGet } from '../../src/commands/chambers/get.js';
import { parseChambersList } from '../../src/commands/chambers/list.js';
import { parseEventsList } from '../../src/commands/events/list.js';
import { parseMembersAdd } from '../../src/commands/members/add.js';
import { parseMembersList } from '../../src/commands/members/list.js';
import { optionValue, pageQuery, pagingOptions } from '../../src/commands/shared/options.js';
import { PageParam } from '../../src/contract/index.js';

function failure(fn: () => unknown): CliError {
  try {
    fn();
  } catch (err) {
    if (err instanceof CliError) return err;
    throw err;
  }
  throw new Error('expected a CliError');
}

const g = { apiVersion: undefined };

describe('option values', () => {
  it('name the option and the value in one line', () => {
    const err = failure(() => optionValue('--page', PageParam, 'abc'));
    expect(err.exitCode).toBe(ExitCode.USAGE);
    expect(err.message).toBe('--page must be a positive integer, not "abc"');
  });

  it.each([
    [{ page: '0' }, '--page must be a positive integer'],
    [{ page: '-1' }, '--page must be a positive integer'],
    [{ page: '1.5' }, '--page must be a positive integer'],
    [{ perPage: 'ten' }, '--per-page must be a positive integer'],
    [{ perPage: '0' }, '--per-page must be a positive integer'],
  ])('reject bad paging %o', (opts, message) => {
    const err = failure(() => pagingOptions(opts));
    expect(err.exitCode).toBe(ExitCode.USAGE);
    expect(err.message.startsWith(message)).toBe(true);
  });

  it('paging defaults to page 1 and the server per_page; per_page above 100 is clamped', () => {
    expect(pagingOptions({})).toEqual({ page: 1, all: false });
    expect(pagingOptions({ page: '3', perPage: '250' })).toEqual({ page: 3, perPage: 100, all: false });
    expect(pagingOptions({ all: true })).toEqual({ page: 1, all: true });
    expect(failure(() => pagingOptions({ all: true, page: '2' })).exitCode).toBe(ExitCode.USAGE);
  });

  it('page query parameters', () => {
    expect(pageQuery(2, undefined)).toEqual({ page: '2' });
    expect(pageQuery(1, 50)).toEqual({ page: '1', per_page: '50' });
  });
});

describe('chambers list options', () => {
  it('become v2 filters and sort', () => {
    const req = parseChambersList({ type: 'hq', status: 'pending', sort: '-created_at', perPage: '5' }, g);
    expect(req.query).toEqual({ 'filter[type]': 'hq', 'filter[status]': 'pending', sort: '-created_at' });
    expect(req.v2Features).toEqual(['--type', '--status', '--sort']);
    expect(req.paging).toEqual({ page: 1, perPage: 5, all: false });
  });

  it('plain paging needs nothing of v2', () => {
    expect(parseChambersList({ page: '2' }, g).v2Features).toEqual([]);
  });

  it.each([
    [{ type: 'bogus' }, '--type must be one of: hq, subsidiary'],
    [{ status: 'gone' }, '--status must be one of: active, inactive, pending'],
    [{ sort: 'joined_at' }, '--sort must be one of: name, -name, created_at, -created_at'],
  ])('reject %o', (opts, message) => {
    const err = failure(() => parseChambersList(opts, g));
    expect(err.exitCode).toBe(ExitCode.USAGE);
    expect(err.message).toContain(message);
  });
});

describe('chambers get options', () => {
  it('--include takes a comma-separated list and needs v2', () => {
    expect(parseChambersGet('ch_1', { include: 'events, members,events' }, g)).toMatchObject({
      query: { include: 'events,members' },
      v2Features: ['--include'],
    });
    expect(parseChambersGet('ch_1', {}, g)).toMatchObject({ query: {}, v2Features: [] });
  });

  it('rejects an unknown relation and an empty id', () => {
    expect(failure(() => parseChambersGet('ch_1', { include: 'members,staff' }, g)).message).toContain(
      '--include must be a comma-separated list of: members, events',
    );
    expect(failure(() => parseChambersGet('  ', {}, g)).exitCode).toBe(ExitCode.USAGE);
  });
});

describe('members list options', () => {
  it('--status and --sort need v2', () => {
    const req = parseMembersList('ch_1', { status: 'active', sort: 'name' }, g);
    expect(req.query).toEqual({ 'filter[status]': 'active', sort: 'name' });
    expect(req.v2Features).toEqual(['--status', '--sort']);
  });

  it('reject a chamber sort field', () => {
    expect(failure(() => parseMembersList('ch_1', { sort: '-created_at' }, g)).message).toContain(
      '--sort must be one of: name, -name, joined_at, -joined_at',
    );
  });
});

describe('events list options', () => {
  it('send dates in UTC; a bare --to date means the end of that day', () => {
    const req = parseEventsList('ch_1', { status: 'upcoming', from: '2026-03-01', to: '2026-03-31T12:00:00+02:00' }, g);
    expect(req.query).toEqual({
      'filter[status]': 'upcoming',
      'filter[date_from]': '2026-03-01T00:00:00.000Z',
      'filter[date_to]': '2026-03-31T10:00:00.000Z',
    });
    expect(parseEventsList('ch_1', { to: '2026-03-31' }, g).query['filter[date_to]']).toBe('2026-03-31T23:59:59.999Z');
  });

  it.each([
    [{ from: '31/03/2026' }, '--from must be an ISO 8601 date'],
    [{ to: '2026-02-30' }, '--to must be an ISO 8601 date'],
    [{ status: 'active' }, '--status must be one of: upcoming, past, canceled'],
    [{ from: '2026-04-01', to: '2026-03-01' }, '--from (2026-04-01) must not be after --to (2026-03-01)'],
  ])('reject %o', (opts, message) => {
    const err = failure(() => parseEventsList('ch_1', opts, g));
    expect(err.exitCode).toBe(ExitCode.USAGE);
    expect(err.message).toContain(message);
  });
});

describe('create and add payloads', () => {
  const chamber = { name: ' Berlin Chamber ', type: 'hq', street: 'Unter den Linden 1', city: 'Berlin', country: 'de' };

  it('are built from the options and normalised by the contract', () => {
    expect(parseChambersCreate({ ...chamber, postalCode: '10117' }, g).body).toEqual({
      name: 'Berlin Chamber',
      type: 'hq',
      address: { street: 'Unter den Linden 1', city: 'Berlin', postal_code: '10117', country: 'DE' },
    });
    const member = parseMembersAdd('ch_1', { name: ' Ada ', email: 'ada@example.org', membershipType: 'premium' }, g).body;
    expect(member).toMatchObject({ name: 'Ada', email: 'ada@example.org', membership_type: 'premium' });
    expect(member.phone ?? null).toBeNull();
  });

  it('a bad payload is rejected data (exit 5) with every field message, naming the options', () => {
    const err = failure(() => parseChambersCreate({ ...chamber, type: 'subsidiary', country: 'XX', city: ' ' }, g));
    expect(err.exitCode).toBe(ExitCode.REJECTED);
    expect(err.message).toBe('the chamber is not valid; nothing was sent');
    expect(err.details).toEqual(
      expect.arrayContaining([
        'hq_id (--hq-id): is required for a subsidiary',
        'address.country (--country): must be an ISO 3166-1 alpha-2 country code, e.g. DE',
        'address.city (--city): must not be empty',
      ]),
    );
    expect(failure(() => parseChambersCreate({ ...chamber, hqId: 'ch_x' }, g)).details).toEqual([
      'hq_id (--hq-id): must be absent or null for an hq',
    ]);
  });

  it('a bad e-mail or phone in members add is exit 5', () => {
    const err = failure(() =>
      parseMembersAdd('ch_1', { name: 'Ada', email: 'not-an-address', phone: 'call me', membershipType: 'premium' }, g),
    );
    expect(err.exitCode).toBe(ExitCode.REJECTED);
    expect(err.details).toEqual([
      'email (--email): must be a valid e-mail address',
      'phone (--phone): must be a phone number (digits, spaces, + ( ) . - /)',
    ]);
  });
});
