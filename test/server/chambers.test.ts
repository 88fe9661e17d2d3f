import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chamber } from '../../src/contract/index.js';
import { buildFixture, referenceSort } from '../helpers/fixture.js';
import { call } from '../helpers/http.js';
import { getToken, startTestServer, type TestServer } from '../helpers/server.js';

let srv: TestServer;
let v1: string;
let v2: string;
let fx: Awaited<ReturnType<typeof buildFixture>>;
beforeAll(async () => {
  srv = await startTestServer({ seed: 'none' });
  fx = await buildFixture(srv.writer);
  [v1, v2] = await Promise.all([getToken(srv.baseUrl, 'v1'), getToken(srv.baseUrl, 'v2')]);
});
afterAll(() => srv.close());

const tokenFor = (path: string) => (path.startsWith('/v1') ? v1 : v2);
const get = (path: string) => call(srv.baseUrl, 'GET', path, { token: tokenFor(path) });

async function walk(path: string, perPage: number): Promise<Chamber[]> {
  const out: Chamber[] = [];
  for (let page = 1; ; page++) {
    const sep = path.includes('?') ? '&' : '?';
    const r = await get(`${path}${sep}page=${page}&per_page=${perPage}`);
    expect(r.status).toBe(200);
    expect(r.body.meta.current_page).toBe(page);
    expect(r.body.meta.per_page).toBe(perPage);
    if (r.body.data.length === 0) break;
    out.push(...r.body.data);
  }
  return out;
}

describe('GET /chambers', () => {
  it.each(['v1', 'v2'])('%s: returns the paged envelope with defaults page 1, per_page 20', async (v) => {
    const r = await get(`/${v}/chambers`);
    expect(r.status).toBe(200);
    expect(r.body.meta).toEqual({ current_page: 1, total: fx.chambers.length, per_page: 20 });
    expect(r.body.data).toHaveLength(20);
    expect(r.body.data[0]).toEqual({
      id: expect.any(String),
      name: expect.any(String),
      type: expect.stringMatching(/^(hq|subsidiary)$/),
      hq_id: null,
      status: expect.any(String),
      address: { street: expect.any(String), city: expect.any(String), postal_code: null, country: 'DE' },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  it.each(['v1', 'v2'])('%s: walking the pages neither repeats nor skips an item', async (v) => {
    const items = await walk(`/${v}/chambers`, 7);
    expect(items.map((c) => c.id)).toEqual(referenceSort(fx.chambers, (c) => c.created_at, false).map((c) => c.id));
  });

  it('clamps per_page above 100 and reports the value in effect', async () => {
    const r = await get('/v2/chambers?per_page=1000');
    expect(r.body.meta.per_page).toBe(100);
    expect(r.body.data).toHaveLength(fx.chambers.length);
    const huge = await get('/v1/chambers?per_page=99999999999999999999999');
    expect(huge.status).toBe(200);
    expect(huge.body.meta.per_page).toBe(100);
  });

  it('returns an empty page past the last one, with the true total', async () => {
    const r = await get('/v2/chambers?page=99&per_page=10');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: [], meta: { current_page: 99, total: fx.chambers.length, per_page: 10 } });
    const far = await get('/v1/chambers?page=9007199254740991');
    expect(far.status).toBe(200);
    expect(far.body.data).toEqual([]);
  });

  it.each([
    ['filter[type]=hq', (c: Chamber) => c.type === 'hq'],
    ['filter[type]=subsidiary', (c: Chamber) => c.type === 'subsidiary'],
    ['filter[status]=pending', (c: Chamber) => c.status === 'pending'],
    ['filter[type]=subsidiary&filter[status]=inactive', (c: Chamber) => c.type === 'subsidiary' && c.status === 'inactive'],
  ])('v2 filters %s', async (query, pred) => {
    const expected = fx.chambers.filter(pred);
    const r = await get(`/v2/chambers?${query}&per_page=100`);
    expect(r.body.meta.total).toBe(expected.length);
    expect(new Set(r.body.data.map((c: Chamber) => c.id))).toEqual(new Set(expected.map((c) => c.id)));
  });

  it.each([
    ['name', false],
    ['-name', true],
    ['created_at', false],
    ['-created_at', true],
  ] as const)('v2 sorts by %s with the id tie-break, page after page', async (sort, desc) => {
    const field = sort.replace('-', '') as 'name' | 'created_at';
    const items = await walk(`/v2/chambers?filter[type]=subsidiary&sort=${sort}`, 6);
    const expected = referenceSort(
      fx.chambers.filter((c) => c.type === 'subsidiary'),
      (c) => c[field],
      desc,
      field === 'name',
    );
    expect(items.map((c) => c.id)).toEqual(expected.map((c) => c.id));
  });

  it('v1 ignores v2 parameters', async () => {
    const plain = await get('/v1/chambers?per_page=50');
    const withV2 = await get('/v1/chambers?per_page=50&filter[type]=hq&filter[status]=bogus&sort=-nope&include=x&filter[zzz]=1');
    expect(withV2.status).toBe(200);
    expect(withV2.body).toEqual(plain.body);
  });

  it.each([
    ['page=0', 'page'],
    ['page=abc', 'page'],
    ['page=-1', 'page'],
    ['page=1.5', 'page'],
    ['per_page=0', 'per_page'],
    ['per_page=ten', 'per_page'],
    ['filter[type]=bogus', 'filter[type]'],
    ['filter[status]=deleted', 'filter[status]'],
    ['sort=population', 'sort'],
    ['sort=--name', 'sort'],
    ['filter[city]=Bonn', 'filter[city]'],
    ['page=1&page=2', 'page'],
  ])('v2 answers %s with 400 and a field error under %s', async (query, key) => {
    const r = await get(`/v2/chambers?${query}`);
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual(expect.any(String));
    expect(Object.keys(r.body.fields)).toEqual([key]);
    expect(r.body.fields[key][0]).toEqual(expect.any(String));
  });

  it('reports every bad parameter at once', async () => {
    const r = await get('/v2/chambers?page=x&filter[type]=y&sort=z');
    expect(Object.keys(r.body.fields).sort()).toEqual(['filter[type]', 'page', 'sort']);
  });

  it.each(['page=0', 'per_page=x', 'page=1&page=2'])('v1 answers %s with 400 {error} only', async (query) => {
    const r = await get(`/v1/chambers?${query}`);
    expect(r.status).toBe(400);
    expect(Object.keys(r.body)).toEqual(['error']);
  });
});

describe('GET /chambers/{id}', () => {
  it.each(['v1', 'v2'])('%s returns the chamber', async (v) => {
    const c = fx.chambers[10]!;
    const r = await get(`/${v}/chambers/${c.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(c);
  });

  it.each(['v1', 'v2'])('%s answers an absent chamber with 404 {error}', async (v) => {
    const r = await get(`/${v}/chambers/ch_doesnotexist`);
    expect(r.status).toBe(404);
    expect(Object.keys(r.body)).toEqual(['error']);
    expect(r.body.error).toMatch(/not found/);
  });

  it('v2 embeds members and events with include', async () => {
    const r = await get(`/v2/chambers/${fx.big.id}?include=members,events`);
    expect(r.status).toBe(200);
    expect(r.body.members).toHaveLength(fx.members.length);
    expect(r.body.members[0]).toEqual(referenceSort(fx.members, (m) => m.joined_at, false)[0]);
    expect(r.body.events).toEqual([]);
    const one = await get(`/v2/chambers/${fx.big.id}?include=members`);
    expect(one.body.events).toBeUndefined();
    expect(one.body.members).toHaveLength(fx.members.length);
  });

  it('v2 rejects an unknown include; v1 ignores include', async () => {
    const r = await get(`/v2/chambers/${fx.big.id}?include=members,owners`);
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.fields)).toEqual(['include']);
    const v1r = await get(`/v1/chambers/${fx.big.id}?include=members`);
    expect(v1r.status).toBe(200);
    expect(v1r.body.members).toBeUndefined();
  });
});

describe('POST /v2/chambers', () => {
  const address = { street: '1 Harbour Road', city: 'Hamburg', postal_code: '20457', country: 'DE' };

  it('creates an HQ: 201, Location, active, hq_id null', async () => {
    const r = await call(srv.baseUrl, 'POST', '/v2/chambers', { token: v2, body: { name: 'New HQ', type: 'hq', address } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: 'New HQ', type: 'hq', hq_id: null, status: 'active', address });
    expect(r.headers.get('location')).toBe(`/v2/chambers/${r.body.id}`);
    const back = await get(`/v2/chambers/${r.body.id}`);
    expect(back.body).toEqual(r.body);
    const total = (await get('/v2/chambers')).body.meta.total;
    const again = await call(srv.baseUrl, 'POST', '/v2/chambers', { token: v2, body: { name: 'Another', type: 'hq', address } });
    expect(again.status).toBe(201);
    expect((await get('/v2/chambers')).body.meta.total).toBe(total + 1);
  });

  it('creates a subsidiary of an HQ and normalises the country code', async () => {
    const r = await call(srv.baseUrl, 'POST', '/v2/chambers', {
      token: v2,
      body: { name: '  Sub Office  ', type: 'subsidiary', hq_id: fx.big.id, address: { ...address, country: 'fr' } },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: 'Sub Office', hq_id: fx.big.id, address: { country: 'FR' } });
  });

  it('reports every failing field at once, dotted for nested ones', async () => {
    const r = await call(srv.baseUrl, 'POST', '/v2/chambers', {
      token: v2,
      body: { type: 'subsidiary', address: { street: '', country: 'XX' } },
    });
    expect(r.status).toBe(422);
    expect(r.body.error).toEqual(expect.any(String));
    expect(Object.keys(r.body.fields).sort()).toEqual(['address.city', 'address.country', 'address.street', 'hq_id', 'name']);
    for (const msgs of Object.values(r.body.fields)) expect(msgs).toEqual([expect.any(String)]);
  });

  it.each([
    ['a subsidiary without hq_id', { type: 'subsidiary' }],
    ['a subsidiary whose hq_id is unknown', { type: 'subsidiary', hq_id: 'ch_nope' }],
    ['a subsidiary whose hq_id is a subsidiary', { type: 'subsidiary', hq_id: 'SUB' }],
    ['an hq with an hq_id', { type: 'hq', hq_id: 'HQ' }],
  ])('answers %s with 422 on hq_id', async (_what, extra) => {
    const sub = fx.chambers.find((c) => c.type === 'subsidiary')!.id;
    const body: Record<string, unknown> = { name: 'X', address, ...extra };
    if (body.hq_id === 'SUB') body.hq_id = sub;
    if (body.hq_id === 'HQ') body.hq_id = fx.big.id;
    const r = await call(srv.baseUrl, 'POST', '/v2/chambers', { token: v2, body });
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.fields)).toEqual(['hq_id']);
  });

  it('accepts hq_id null on an hq', async () => {
    const r = await call(srv.baseUrl, 'POST', '/v2/chambers', { token: v2, body: { name: 'Null HQ', type: 'hq', hq_id: null, address } });
    expect(r.status).toBe(201);
  });
});
