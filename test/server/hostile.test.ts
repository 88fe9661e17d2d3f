import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture } from '../helpers/fixture.js';
import { call } from '../helpers/http.js';
import { getToken, startTestServer, type TestServer } from '../helpers/server.js';

// Hostile input gets the documented 4xx: never a 5xx, a stack trace or SQL in the answer.

let srv: TestServer;
let v2: string;
let hq: string;
const logs: string[] = [];
beforeAll(async () => {
  srv = await startTestServer({ seed: 'none', rawLog: (l) => logs.push(l) });
  hq = (await buildFixture(srv.writer, { members: 3 })).big.id;
  v2 = await getToken(srv.baseUrl, 'v2');
});
afterAll(() => srv.close());

function expectClean(r: { status: number; text: string }, status: number) {
  expect(r.status).toBe(status);
  expect(r.text).not.toMatch(/at .+\(.+:\d+:\d+\)|SQLITE|SELECT|node_modules/);
}

const sqlish = ["' OR 1=1 --", "'; DROP TABLE chambers; --", 'Robert"); DELETE FROM members;--'];
const address = { street: '1 St', city: 'Bonn', country: 'DE' };

describe('hostile input', () => {
  it.each([
    ['a number name', { name: 12, type: 'hq', address }],
    ['an array type', { name: 'x', type: ['hq'], address }],
    ['a nested address array', { name: 'x', type: 'hq', address: [address] }],
    ['a huge number', { name: 1e308, type: 'hq', address }],
    ['a long name', { name: 'x'.repeat(10_000), type: 'hq', address }],
    ['a proto key', JSON.parse('{"__proto__": {"admin": true}, "name": 1}')],
    ['an object where a string belongs', { name: { $gt: '' }, type: 'hq', address }],
  ])('POST /chambers with %s → 422', async (_what, body) => {
    const r = await call(srv.baseUrl, 'POST', '/v2/chambers', { token: v2, body });
    expectClean(r, 422);
    expect(r.body.fields).toBeTruthy();
  });

  it('stores SQL-looking and unicode strings as plain data', async () => {
    for (const name of [...sqlish, 'Zürich Handelskammer 商会 🏛️', 'Ñandú \u202e']) {
      const r = await call(srv.baseUrl, 'POST', '/v2/chambers', { token: v2, body: { name, type: 'hq', address } });
      expectClean(r, 201);
      expect(r.body.name).toBe(name.trim());
      const back = await call(srv.baseUrl, 'GET', `/v2/chambers/${r.body.id}`, { token: v2 });
      expect(back.body.name).toBe(name.trim());
    }
    const list = await call(srv.baseUrl, 'GET', '/v2/chambers?per_page=1', { token: v2 });
    expect(list.body.meta.total).toBeGreaterThan(50); // nothing dropped
  });

  it.each([
    ...sqlish.map((s) => `filter[status]=${encodeURIComponent(s)}`),
    ...sqlish.map((s) => `sort=${encodeURIComponent(s)}`),
    'page=99999999999999999999999',
    'page=1e3',
    'page=%00',
    'per_page=1&per_page=2',
    'filter[type]=hq&filter[type]=subsidiary',
    'sort=name&sort=-name',
    `filter[status]=${'a'.repeat(5000)}`,
    'filter[status][]=active',
    'filter=active',
  ])('GET /v2/chambers?%s → 400', async (q) => {
    const r = await call(srv.baseUrl, 'GET', `/v2/chambers?${q}`, { token: v2 });
    if (q === 'filter=active') expectClean(r, 200); // not a filter[...] name: ignored like any unknown parameter
    else expectClean(r, 400);
  });

  it('answers SQL-looking and long ids with 404', async () => {
    for (const id of [...sqlish, 'x'.repeat(400), '%F0%9F%8F%9B', '..%2F..%2Fetc%2Fpasswd']) {
      const r = await call(srv.baseUrl, 'GET', `/v2/chambers/${encodeURIComponent(id)}`, { token: v2 });
      expectClean(r, 404);
      const m = await call(srv.baseUrl, 'POST', `/v2/chambers/${encodeURIComponent(id)}/members`, {
        token: v2,
        body: { name: 'a', email: 'a@b.co', membership_type: 'standard' },
      });
      expectClean(m, 404);
    }
  });

  it('rejects hostile member payloads with 422 and stores nothing', async () => {
    const before = (await call(srv.baseUrl, 'GET', `/v2/chambers/${hq}/members`, { token: v2 })).body.meta.total;
    for (const email of ['a@b', '<script>@x.com', "x' OR '1'='1@example.org", `${'a'.repeat(300)}@example.org`, 'a@b.co\n']) {
      const r = await call(srv.baseUrl, 'POST', `/v2/chambers/${hq}/members`, {
        token: v2,
        body: { name: 'n', email, membership_type: 'standard' },
      });
      if (email === 'a@b.co\n') expectClean(r, 201); // surrounding white space is trimmed
      else expectClean(r, 422);
    }
    const after = (await call(srv.baseUrl, 'GET', `/v2/chambers/${hq}/members`, { token: v2 })).body.meta.total;
    expect(after).toBe(before + 1);
  });

  it('never logs an Authorization header or a body', () => {
    expect(logs.length).toBeGreaterThan(10);
    const all = logs.join('\n');
    expect(all).not.toContain(v2);
    expect(all).not.toContain('DROP TABLE');
    for (const line of logs) {
      const entry = JSON.parse(line);
      if (entry.msg !== 'request completed') continue;
      expect(entry.reqId).toMatch(/^[\x21-\x7e]{1,128}$/);
      expect(entry.req.method).toMatch(/^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/);
      expect(entry.res.statusCode).toBeGreaterThanOrEqual(200);
      expect(entry).not.toHaveProperty('body');
      if (entry.req.headers.authorization !== undefined) expect(entry.req.headers.authorization).toBe('[redacted]');
    }
  });
});

describe('text and dates that cannot be stored as acknowledged', () => {
  it('a lone surrogate in a body field is a 422 on that field; nothing is stored', async () => {
    const before = await call(srv.baseUrl, 'GET', `/v2/chambers/${hq}/members?per_page=1`, { token: v2 });
    // JSON's "\udfff" escape: JSON.stringify keeps it escaped, so the server sees the lone surrogate
    const r = await call(srv.baseUrl, 'POST', `/v2/chambers/${hq}/members`, {
      token: v2,
      body: { name: 'x\udfffy', email: 'lone@example.org', membership_type: 'standard' },
    });
    expectClean(r, 422);
    expect(Object.keys(r.body.fields)).toEqual(['name']);
    expect(r.body.fields.name[0]).toMatch(/well-formed/);
    const c = await call(srv.baseUrl, 'POST', '/v2/chambers', { token: v2, body: { name: 'ok', type: 'hq', address: { ...address, city: '\ud800' } } });
    expectClean(c, 422);
    expect(Object.keys(c.body.fields)).toEqual(['address.city']);
    const after = await call(srv.baseUrl, 'GET', `/v2/chambers/${hq}/members?per_page=1`, { token: v2 });
    expect(after.body.meta.total).toBe(before.body.meta.total);
  });

  it('a well-formed astral character is stored and read back byte for byte', async () => {
    const name = 'Zoë 🇧🇪 👩‍👩‍👧 𝄞';
    const r = await call(srv.baseUrl, 'POST', `/v2/chambers/${hq}/members`, {
      token: v2,
      body: { name, email: 'astral@example.org', membership_type: 'standard' },
    });
    expect(r.status).toBe(201);
    const back = await call(srv.baseUrl, 'GET', `/v2/chambers/${hq}/members/${r.body.id}`, { token: v2 });
    expect(back.body.name).toBe(name);
  });

  it('a lone surrogate in a query parameter is a 400 on that parameter', async () => {
    const r = await call(srv.baseUrl, 'GET', '/v2/chambers?sort=%ED%A0%80', { token: v2 });
    // %ED%A0%80 is the UTF-8 form of a surrogate, which no decoder accepts: still a clean 400
    expectClean(r, 400);
    const q = await call(srv.baseUrl, 'GET', `/v2/chambers?sort=${encodeURIComponent('name')}%EF%BF%BD`, { token: v2 });
    expectClean(q, 400);
  });

  // PostgreSQL's text types cannot hold U+0000: refused alike on both backends, never a 500
  it('U+0000 (NUL) in an id is a 404, in a query value a 400, in a body field a 422; nothing is stored', async () => {
    const v1 = await getToken(srv.baseUrl, 'v1');
    for (const path of ['/v2/chambers/%00', `/v2/chambers/a%00b`, `/v2/chambers/%00/members`, `/v2/chambers/%00/events`, `/v2/chambers/${hq}/members/mb%00x`, '/v1/chambers/%00']) {
      const r = await call(srv.baseUrl, 'GET', path, { token: path.startsWith('/v1') ? v1 : v2 });
      expectClean(r, 404);
    }
    const post = await call(srv.baseUrl, 'POST', '/v2/chambers/%00/members', { token: v2, body: { name: 'a', email: 'nul@example.org', membership_type: 'standard' } });
    expectClean(post, 404);
    for (const q of ['sort=name%00', 'filter[status]=active%00', 'page=1%00']) {
      const r = await call(srv.baseUrl, 'GET', `/v2/chambers?${q}`, { token: v2 });
      expectClean(r, 400);
      expect(Object.keys(r.body.fields)).toEqual([q.split('=')[0]]);
    }
    const before = await call(srv.baseUrl, 'GET', `/v2/chambers/${hq}/members?per_page=1`, { token: v2 });
    const m = await call(srv.baseUrl, 'POST', `/v2/chambers/${hq}/members`, { token: v2, body: { name: 'Nul\u0000Name', email: 'nul@example.org', phone: '1\u00002', membership_type: 'standard' } });
    expectClean(m, 422);
    expect(Object.keys(m.body.fields).sort()).toEqual(['name', 'phone']);
    expect(m.body.fields.name[0]).toMatch(/U\+0000/);
    const c = await call(srv.baseUrl, 'POST', '/v2/chambers', { token: v2, body: { name: 'ok\u0000', type: 'hq', address: { ...address, street: '\u0000' } } });
    expectClean(c, 422);
    expect(Object.keys(c.body.fields).sort()).toEqual(['address.street', 'name']);
    const after = await call(srv.baseUrl, 'GET', `/v2/chambers/${hq}/members?per_page=1`, { token: v2 });
    expect(after.body.meta.total).toBe(before.body.meta.total);
  });

  it.each([
    ['9999-12-31T23:59:59-23:59', 'filter[date_from]'],
    ['0000-01-01T00:00:00+01:00', 'filter[date_from]'],
    ['+010000-01-01T00:00:00Z', 'filter[date_to]'],
  ])('an event date outside the years 0000-9999 (%s) is a 400', async (date, param) => {
    const r = await call(srv.baseUrl, 'GET', `/v2/chambers/${hq}/events?${encodeURIComponent(param)}=${encodeURIComponent(date)}`, { token: v2 });
    expectClean(r, 400);
    expect(Object.keys(r.body.fields)).toEqual([param]);
  });

  it('dates at the edges of the range are compared as instants', async () => {
    const late = await call(srv.baseUrl, 'GET', `/v2/chambers/${hq}/events?filter[date_from]=${encodeURIComponent('9999-12-31T23:59:59Z')}`, { token: v2 });
    expect(late.status).toBe(200);
    expect(late.body.meta.total).toBe(0);
    const early = await call(srv.baseUrl, 'GET', `/v2/chambers/${hq}/events?filter[date_to]=${encodeURIComponent('0001-01-01T00:00:00+00:00')}`, { token: v2 });
    expect(early.status).toBe(200);
    expect(early.body.meta.total).toBe(0);
  });
});
