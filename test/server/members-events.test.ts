import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Event, Member } from '../../src/contract/index.js';
import { buildFixture, referenceSort } from '../helpers/fixture.js';
import { call } from '../helpers/http.js';
import { getToken, startTestServer, type TestServer } from '../helpers/server.js';

let srv: TestServer;
let v1: string;
let v2: string;
let fx: Awaited<ReturnType<typeof buildFixture>>;
/** The events as served at `clock`: stored as inserted, statuses judged when read. */
const events: Event[] = [];
// The server's clock: mid-January, among the events (each test that moves it puts it back).
const JAN_15 = Date.parse('2026-01-15T12:00:00Z');
let clock = JAN_15;
const judged = (e: Event, at: number): Event => ({
  ...e,
  status: e.status === 'canceled' ? 'canceled' : Date.parse(e.ends_at) >= at ? 'upcoming' : 'past',
});
beforeAll(async () => {
  srv = await startTestServer({ seed: 'none', now: () => new Date(clock) });
  fx = await buildFixture(srv.writer);
  // 30 events one day apart, each lasting two days: windows overlap their neighbours.
  const statuses = ['upcoming', 'past', 'canceled'] as const;
  for (let i = 0; i < 30; i++) {
    const start = new Date(Date.UTC(2026, 0, 1 + i, 9));
    const e: Event = {
      id: `ev_test${String(i).padStart(3, '0')}`,
      chamber_id: fx.big.id,
      title: `Event ${i}`,
      status: statuses[i % 3]!,
      starts_at: start.toISOString(),
      ends_at: new Date(start.getTime() + 2 * 86400_000).toISOString(),
      location: i % 2 ? 'Town Hall' : null,
    };
    await srv.writer.insertEvent(e);
    events.push(judged(e, JAN_15));
  }
  [v1, v2] = await Promise.all([getToken(srv.baseUrl, 'v1'), getToken(srv.baseUrl, 'v2')]);
});
afterAll(() => srv.close());

const get = (path: string) => call(srv.baseUrl, 'GET', path, { token: path.startsWith('/v1') ? v1 : v2 });
const post = (path: string, body: unknown) => call(srv.baseUrl, 'POST', path, { token: v2, body });

describe('GET /chambers/{id}/members', () => {
  it.each(['v1', 'v2'])('%s lists a chamber\'s members in joining order', async (v) => {
    const r = await get(`/${v}/chambers/${fx.big.id}/members?per_page=100`);
    expect(r.status).toBe(200);
    expect(r.body.meta).toEqual({ current_page: 1, total: fx.members.length, per_page: 100 });
    expect(r.body.data.map((m: Member) => m.id)).toEqual(referenceSort(fx.members, (m) => m.joined_at, false).map((m) => m.id));
    expect(r.body.data[0]).toEqual({
      id: expect.any(String),
      chamber_id: fx.big.id,
      name: expect.any(String),
      email: expect.any(String),
      phone: null,
      membership_type: 'standard',
      status: expect.any(String),
      joined_at: expect.any(String),
    });
  });

  it('v2 filters by status and sorts by name with the id tie-break', async () => {
    const r = await get(`/v2/chambers/${fx.big.id}/members?filter[status]=active&sort=-name&per_page=100`);
    const expected = referenceSort(fx.members.filter((m) => m.status === 'active'), (m) => m.name, true, true);
    expect(r.body.meta.total).toBe(expected.length);
    expect(r.body.data.map((m: Member) => m.id)).toEqual(expected.map((m) => m.id));
  });

  it('v1 ignores the filter', async () => {
    const r = await get(`/v1/chambers/${fx.big.id}/members?filter[status]=active&sort=nope`);
    expect(r.status).toBe(200);
    expect(r.body.meta.total).toBe(fx.members.length);
  });

  it.each(['filter[status]=gone', 'sort=email', 'per_page=-3'])('v2 answers %s with 400 + fields', async (q) => {
    const r = await get(`/v2/chambers/${fx.big.id}/members?${q}`);
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.fields)).toHaveLength(1);
  });

  it.each(['v1', 'v2'])('%s: 404 for an absent chamber', async (v) => {
    const r = await get(`/${v}/chambers/ch_missing/members`);
    expect(r.status).toBe(404);
    expect(r.body.error).toMatch(/not found/);
  });
});

describe('POST /v2/chambers/{id}/members', () => {
  it('adds a member: 201, Location that resolves, active', async () => {
    const r = await post(`/v2/chambers/${fx.big.id}/members`, {
      name: 'Ada Lovelace',
      email: 'Ada@Example.org',
      phone: '+44 20 7946 0000',
      membership_type: 'honorary',
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: 'Ada Lovelace', email: 'Ada@Example.org', status: 'active', membership_type: 'honorary' });
    const location = r.headers.get('location')!;
    expect(location).toBe(`/v2/chambers/${fx.big.id}/members/${r.body.id}`);
    const back = await get(location);
    expect(back.body).toEqual(r.body);
    const list = await get(`/v2/chambers/${fx.big.id}/members?per_page=1`);
    expect(list.body.meta.total).toBe(fx.members.length + 1);
  });

  it('answers the same e-mail in another case with 409 on email', async () => {
    const r = await post(`/v2/chambers/${fx.big.id}/members`, { name: 'Ada Again', email: 'ada@EXAMPLE.org', membership_type: 'standard' });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ error: expect.any(String), fields: { email: [expect.any(String)] } });
  });

  it('allows the same e-mail in another chamber', async () => {
    const r = await post(`/v2/chambers/${fx.hqs[1]!.id}/members`, { name: 'Ada', email: 'ada@example.org', membership_type: 'standard' });
    expect(r.status).toBe(201);
  });

  it('reports every failing field at once', async () => {
    const r = await post(`/v2/chambers/${fx.big.id}/members`, { email: 'not-an-address', membership_type: 'gold', phone: 42 });
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.fields).sort()).toEqual(['email', 'membership_type', 'name', 'phone']);
  });

  it('404 for an absent chamber, whatever the body', async () => {
    for (const body of [{ name: 'A', email: 'a@b.co', membership_type: 'standard' }, { name: '', email: 'nope' }, ['not', 'an', 'object']]) {
      const r = await post('/v2/chambers/ch_missing/members', body);
      expect(r.status, JSON.stringify(body)).toBe(404);
      expect(r.body.error).toMatch(/not found/);
    }
  });

  it('404 for an absent chamber', async () => {
    const r = await post('/v2/chambers/ch_missing/members', { name: 'A', email: 'a@b.co', membership_type: 'standard' });
    expect(r.status).toBe(404);
  });
});

describe('GET /v2/chambers/{id}/events', () => {
  it('lists events by start date', async () => {
    const r = await get(`/v2/chambers/${fx.big.id}/events?per_page=100`);
    expect(r.status).toBe(200);
    expect(r.body.meta.total).toBe(30);
    expect(r.body.data).toEqual(events);
  });

  it('filters by status', async () => {
    const r = await get(`/v2/chambers/${fx.big.id}/events?filter[status]=canceled&per_page=100`);
    expect(r.body.data).toEqual(events.filter((e) => e.status === 'canceled'));
    expect(r.body.meta.total).toBe(10);
  });

  it('judges statuses when read: canceled stays, the rest is upcoming until it ends, then past', async () => {
    const upcoming = events.filter((e) => e.status === 'upcoming');
    const past = events.filter((e) => e.status === 'past');
    expect(upcoming.length).toBeGreaterThan(0);
    expect(past.length).toBeGreaterThan(0);
    const list = async (status: string) => (await get(`/v2/chambers/${fx.big.id}/events?filter[status]=${status}&per_page=100`)).body;
    expect((await list('upcoming')).data).toEqual(upcoming);
    expect((await list('upcoming')).meta.total).toBe(upcoming.length);
    expect((await list('past')).data).toEqual(past);
    // a month later every event has ended: the same rows, now past (or still canceled)
    clock = Date.parse('2026-03-01T00:00:00Z');
    try {
      v2 = await getToken(srv.baseUrl, 'v2'); // the January token has expired by then
      expect((await list('upcoming')).meta.total).toBe(0);
      expect((await list('past')).data).toEqual(events.filter((e) => e.status !== 'canceled').map((e) => ({ ...e, status: 'past' })));
      const full = await get(`/v2/chambers/${fx.big.id}?include=events`);
      expect(full.body.events.filter((e: Event) => e.status === 'upcoming')).toEqual([]);
      // an event ending exactly now is still upcoming; a millisecond later it is past
      const last = events.at(-1)!;
      clock = Date.parse(last.ends_at);
      v2 = await getToken(srv.baseUrl, 'v2');
      expect((await list('upcoming')).data.map((e: Event) => e.id)).toEqual(last.status === 'canceled' ? [] : [last.id]);
      clock += 1;
      expect((await list('upcoming')).meta.total).toBe(0);
    } finally {
      clock = JAN_15;
      // the January token expired in March, and the token endpoint purged it then
      v2 = await getToken(srv.baseUrl, 'v2');
    }
  });

  it('keeps events that overlap the date window', async () => {
    // from Jan 10: events ending on/after Jan 10 (those starting Jan 8 or later);
    // to Jan 12 (whole day): events starting on/before Jan 12 23:59:59.999.
    const r = await get(`/v2/chambers/${fx.big.id}/events?filter[date_from]=2026-01-10&filter[date_to]=2026-01-12&per_page=100`);
    expect(r.body.data.map((e: Event) => e.title)).toEqual(['Event 7', 'Event 8', 'Event 9', 'Event 10', 'Event 11']);
    expect(r.body.meta.total).toBe(5);
    const dt = await get(`/v2/chambers/${fx.big.id}/events?filter[date_from]=2026-01-10T10:00:00%2B01:00&filter[status]=upcoming&per_page=2`);
    expect(dt.body.meta.total).toBe(events.filter((e) => e.ends_at >= '2026-01-10T09:00:00.000Z' && e.status === 'upcoming').length);
    expect(dt.body.data).toHaveLength(2);
  });

  it.each([
    ['filter[date_from]=yesterday', 'filter[date_from]'],
    ['filter[date_to]=2026-13-01', 'filter[date_to]'],
    ['filter[date_from]=2026-02-01&filter[date_to]=2026-01-01', 'filter[date_from]'],
    ['filter[status]=active', 'filter[status]'],
  ])('answers %s with 400 on %s', async (q, key) => {
    const r = await get(`/v2/chambers/${fx.big.id}/events?${q}`);
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.fields)).toEqual([key]);
  });

  it('is v2 only: 405 on v1', async () => {
    const r = await get(`/v1/chambers/${fx.big.id}/events`);
    expect(r.status).toBe(405);
  });

  it('404 for an absent chamber', async () => {
    expect((await get('/v2/chambers/nope/events')).status).toBe(404);
  });
});
