import { describe, expect, it } from 'vitest';
import {
  Address,
  ChamberCreate,
  ChamberRecord,
  ChambersQueryV2,
  EventsQueryV2,
  IncludeParam,
  Member,
  MemberCreate,
  PageParam,
  PerPageParam,
  parseQuery,
  parseWith,
} from '../../src/contract/index.js';

// Every validation rule of the contract, once each. The server tests show the same rules
// over HTTP; these pin the messages and edge values.

const address = { street: '1 Main St', city: 'Bonn', country: 'DE' };
const chamber = { name: 'Bonn Chamber', type: 'hq', address };
const member = { name: 'Ada', email: 'ada@example.org', membership_type: 'standard' };

const fieldsOf = (r: ReturnType<typeof parseWith>) => (r.ok ? {} : r.fields);

describe('ChamberCreate', () => {
  it('accepts a minimal hq and fills defaults', () => {
    const r = parseWith(ChamberCreate, chamber);
    expect(r).toEqual({ ok: true, value: { ...chamber, address: { ...address, postal_code: null } } });
  });

  it.each([
    [{ ...chamber, name: '   ' }, 'name', 'must not be empty'],
    [{ ...chamber, name: 'x'.repeat(201) }, 'name', 'must be at most 200 characters'],
    [{ ...chamber, name: 7 }, 'name', 'must be a string'],
    [{ ...chamber, type: 'branch' }, 'type', 'must be one of: hq, subsidiary'],
    [{ name: 'x', address }, 'type', 'is required'],
    [{ ...chamber, address: undefined }, 'address', 'is required'],
    [{ ...chamber, address: 'Bonn' }, 'address', 'must be an object'],
    [{ ...chamber, address: { ...address, street: undefined } }, 'address.street', 'is required'],
    [{ ...chamber, address: { ...address, city: '' } }, 'address.city', 'must not be empty'],
    [{ ...chamber, address: { ...address, postal_code: 'x'.repeat(21) } }, 'address.postal_code', 'must be at most 20 characters'],
    [{ ...chamber, address: { ...address, country: 'Germany' } }, 'address.country', 'must be an ISO 3166-1 alpha-2 country code, e.g. DE'],
    [{ ...chamber, address: { ...address, country: 'EU' } }, 'address.country', 'must be an ISO 3166-1 alpha-2 country code, e.g. DE'],
    [{ ...chamber, type: 'subsidiary' }, 'hq_id', 'is required for a subsidiary'],
    [{ ...chamber, hq_id: 'ch_x' }, 'hq_id', 'must be absent or null for an hq'],
  ])('rejects %j on %s', (input, field, message) => {
    expect(fieldsOf(parseWith(ChamberCreate, input))[field]).toEqual([message]);
  });

  it('normalises a lower-case country and trims text', () => {
    const r = parseWith(ChamberCreate, { ...chamber, name: ' A ', address: { ...address, country: ' fr ' } });
    expect(r.ok && r.value.name).toBe('A');
    expect(r.ok && r.value.address.country).toBe('FR');
  });
});

describe('MemberCreate', () => {
  it('accepts a member without a phone', () => {
    expect(parseWith(MemberCreate, member)).toEqual({ ok: true, value: { ...member, phone: null } });
  });

  it.each([
    [{ ...member, email: 'ada' }, 'email', 'must be a valid e-mail address'],
    [{ ...member, email: 'ada@' }, 'email', 'must be a valid e-mail address'],
    [{ ...member, email: `${'a'.repeat(250)}@x.io` }, 'email', 'must be at most 254 characters'],
    [{ ...member, email: undefined }, 'email', 'is required'],
    [{ ...member, phone: 'call me' }, 'phone', 'must be a phone number (digits, spaces, + ( ) . - /)'],
    [{ ...member, phone: '1'.repeat(41) }, 'phone', 'must be at most 40 characters'],
    [{ ...member, membership_type: 'gold' }, 'membership_type', 'must be one of: standard, premium, corporate, honorary'],
    [{ ...member, name: undefined }, 'name', 'is required'],
  ])('rejects %j on %s', (input, field, message) => {
    expect(fieldsOf(parseWith(MemberCreate, input))[field]).toEqual([message]);
  });

  it.each(['+49 (0)228 123-45', '0228/12345', '+1.202.555.0101'])('accepts the phone %s', (phone) => {
    expect(parseWith(MemberCreate, { ...member, phone }).ok).toBe(true);
  });
});

describe('query parameters', () => {
  it.each([
    ['1', 1],
    ['0007', 7],
    ['9007199254740991', 9007199254740991],
  ])('page %s → %d', (raw, n) => expect(PageParam.parse(raw)).toBe(n));

  it.each(['0', '-1', '1.0', '1e2', '', ' 1', '9007199254740993'])('page %j is rejected', (raw) => {
    expect(PageParam.safeParse(raw).success).toBe(false);
  });

  it.each([
    ['1', 1],
    ['100', 100],
    ['101', 100],
    ['00100', 100],
    ['99999999999999999999999999', 100],
    ['9007199254740992', 100],
  ])('per_page %s → %d (clamped)', (raw, n) => expect(PerPageParam.parse(raw)).toBe(n));

  it.each(['0', '00', '-1', '1.0', '1e2', '', ' 1', 'x'])('per_page %j is rejected: must be a positive integer', (raw) => {
    const r = parseQuery(ChambersQueryV2, { per_page: raw }, { strictFilters: true });
    expect(r.ok ? {} : r.fields).toEqual({ per_page: ['must be a positive integer'] });
  });

  it('include accepts a comma list with spaces and repeats', () => {
    expect(IncludeParam.parse('members, events,members')).toEqual(['members', 'events']);
    expect(IncludeParam.safeParse('members,teams').success).toBe(false);
  });

  it('normalises event dates to UTC instants, whole days inclusive', () => {
    const r = parseQuery(EventsQueryV2, { 'filter[date_from]': '2026-03-01', 'filter[date_to]': '2026-03-02T10:00:00+02:00' }, { strictFilters: true });
    expect(r.ok && r.value['filter[date_from]']).toBe('2026-03-01T00:00:00.000Z');
    expect(r.ok && r.value['filter[date_to]']).toBe('2026-03-02T08:00:00.000Z');
    const day = parseQuery(EventsQueryV2, { 'filter[date_to]': '2026-03-02' }, { strictFilters: true });
    expect(day.ok && day.value['filter[date_to]']).toBe('2026-03-02T23:59:59.999Z');
  });

  it('rejects impossible dates', () => {
    for (const d of ['2026-02-30', '2026-13-01', '26-01-01', '2026-01-01T25:00:00Z', 'now']) {
      const r = parseQuery(EventsQueryV2, { 'filter[date_from]': d }, { strictFilters: true });
      expect(r.ok, d).toBe(false);
    }
  });

  it('keys errors by the parameter name as sent', () => {
    const r = parseQuery(ChambersQueryV2, { 'filter[type]': 'x', sort: 'id', per_page: ['1', '2'] }, { strictFilters: true });
    expect(r.ok).toBe(false);
    expect(!r.ok && Object.keys(r.fields).sort()).toEqual(['filter[type]', 'per_page', 'sort']);
  });
});

describe('returned records', () => {
  // What the server returns, and what a snapshot or a remote must hold for chamberctl to take it.
  const address = { street: '1 Main St', city: 'Bonn', postal_code: null, country: 'DE' };
  const member = {
    id: 'mb_1', chamber_id: 'ch_1', name: 'Ada', email: 'ada@example.org', phone: null,
    membership_type: 'standard', status: 'active', joined_at: '2026-03-01T10:00:00.000Z',
  };

  it('a member holds a valid e-mail address, as a new member must', () => {
    expect(parseWith(Member, member).ok).toBe(true);
    for (const email of ['ada', 'ada@', 'ada@example', ' ada@example.org']) {
      expect(fieldsOf(parseWith(Member, { ...member, email })), email).toEqual({ email: ['must be a valid e-mail address'] });
    }
    // no address at all is a missing string, as the reader says it (a snapshot: `is required`)
    expect(fieldsOf(parseWith(Member, { ...member, email: undefined })).email).toEqual(['Invalid input: expected string, received undefined']);
  });

  it('an address holds its country as two upper-case letters, as the server stores it', () => {
    expect(parseWith(Address, address).ok).toBe(true);
    for (const country of ['de', 'DEU', 'D', '', 'D1']) {
      expect(fieldsOf(parseWith(Address, { ...address, country })), country).toEqual({ country: ['must be an ISO 3166-1 alpha-2 country code, e.g. DE'] });
    }
    const chamber = { id: 'ch_1', name: 'A', type: 'hq', hq_id: null, status: 'active', address: { ...address, country: 'de' }, created_at: '2026-03-01T10:00:00.000Z' };
    expect(Object.keys(fieldsOf(parseWith(ChamberRecord, chamber)))).toEqual(['address.country']);
  });
});
