import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChamberGetQueryV2, ChambersQueryV2, EventsQueryV2, ListQueryV1, MembersQueryV2 } from '../../src/contract/index.js';
import { call } from '../helpers/http.js';
import { getToken, startTestServer, type TestServer } from '../helpers/server.js';

// SQL in query values, on the backend under test (CHAMBERCTL_TEST_BACKEND): every parameter of
// every list and read endpoint, and a few names no endpoint has, given values made to break
// out of a statement. Each answer is a 400 or a 200 equal to the answer without the
// parameter (a value ignored), never SQL or a stack; afterwards every table holds what it held.

const PROBES = [
  "'",
  "''",
  '"',
  "' OR '1'='1",
  "active' OR 1=1 --",
  "active'; DROP TABLE members; --",
  '1; DROP TABLE chambers',
  'name; DELETE FROM chambers',
  'name -- a comment',
  'name /* a comment */',
  '-name, (SELECT 1)',
  "1) UNION SELECT client_id, secret_hash FROM clients --",
  "'; SELECT pg_sleep(10); --",
  "'||(SELECT sqlite_version())||'",
  '\\',
  "\\'; --",
  '$1',
  '?',
  '%',
  '_',
  'name COLLATE NOCASE',
  'members,events;--',
];

const keysOf = (schema: { shape: Record<string, unknown> }) => Object.keys(schema.shape);
const TABLES = ['chambers', 'members', 'events', 'clients', 'tokens', 'audit', 'idempotency_keys'];

let srv: TestServer;
let v1: string;
let v2: string;
let hq: string;
const counts = async () => Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, (await srv.rows(t)).length])));
let before: Record<string, number>;

beforeAll(async () => {
  srv = await startTestServer({ seed: 'demo' });
  [v1, v2] = await Promise.all([getToken(srv.baseUrl, 'v1'), getToken(srv.baseUrl, 'v2')]);
  hq = (await call(srv.baseUrl, 'GET', '/v2/chambers?filter[type]=hq&per_page=1', { token: v2 })).body.data[0].id;
  before = await counts();
});
afterAll(() => srv.close());

describe('SQL in query values', () => {
  const endpoints = () => [
    { path: '/v1/chambers', token: v1, params: [...keysOf(ListQueryV1), 'sort', 'filter[status]'] },
    { path: `/v1/chambers/${hq}/members`, token: v1, params: [...keysOf(ListQueryV1), 'sort'] },
    { path: '/v2/chambers', token: v2, params: keysOf(ChambersQueryV2) },
    { path: `/v2/chambers/${hq}`, token: v2, params: keysOf(ChamberGetQueryV2) },
    { path: `/v2/chambers/${hq}/members`, token: v2, params: keysOf(MembersQueryV2) },
    { path: `/v2/chambers/${hq}/events`, token: v2, params: keysOf(EventsQueryV2) },
  ];

  it('every parameter of every list: a 400, or a 200 equal to the answer without it', async () => {
    let probed = 0;
    for (const { path, token, params } of endpoints()) {
      const plain = await call(srv.baseUrl, 'GET', path, { token });
      expect(plain.status).toBe(200);
      for (const param of [...params, "filter[name' OR 1=1]", 'sort;--', 'q']) {
        for (const value of PROBES) {
          const r = await call(srv.baseUrl, 'GET', `${path}?${encodeURIComponent(param)}=${encodeURIComponent(value)}`, { token });
          probed++;
          expect([200, 400], `${path}?${param}=${value}`).toContain(r.status);
          expect(r.text).not.toMatch(/SQLITE|syntax error|SELECT|DROP|UNION|at .+\(.+:\d+:\d+\)/i);
          if (r.status === 200) expect(r.body, `${path}?${param}=${value}`).toEqual(plain.body);
        }
      }
    }
    expect(probed).toBeGreaterThan(500);
  });

  it('in ids too: a 404', async () => {
    for (const value of PROBES) {
      for (const path of [`/v2/chambers/${encodeURIComponent(value)}`, `/v2/chambers/${hq}/members/${encodeURIComponent(value)}`, `/v1/chambers/${encodeURIComponent(value)}/members`]) {
        const r = await call(srv.baseUrl, 'GET', path, { token: path.startsWith('/v1') ? v1 : v2 });
        expect([404, 400], path).toContain(r.status); // 400: a value that is not a valid path (a lone %)
        expect(Object.keys(r.body)).toEqual(['error']);
        expect(r.body.error).toMatch(/ was not found( in chamber "\w+")?$|not a valid URL path/);
        // the message names the id as sent, SQL and all: nothing else
        expect(r.body.error.replace(JSON.stringify(value).slice(1, -1), '')).not.toMatch(/SQLITE|syntax error|SELECT|at .+\(.+:\d+:\d+\)/i);
      }
    }
  });

  it('leaves every table as it was', async () => {
    expect(await counts()).toEqual(before);
    const r = await call(srv.baseUrl, 'GET', '/v2/chambers?per_page=1', { token: v2 });
    expect(r.body.meta.total).toBe(before.chambers);
  });
});
