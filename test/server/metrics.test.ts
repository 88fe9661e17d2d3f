// serve --metrics: GET /metrics in the Prometheus text format, whose counters move by exactly
// what the test sent; without --metrics, /metrics is a 404 like any unknown path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { getToken, startTestServer, TEST_BACKEND, TEST_CLIENT_ID, type TestServer } from '../helpers/server.js';

/** Every sample of a Prometheus text exposition, as `name{label="v",...}` → value; throws on a line it cannot read. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (-?[0-9.e+-]+|NaN|\+Inf|-Inf)$/i.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    out.set(`${m[1]}${m[2] ?? ''}`, Number(m[3]));
  }
  return out;
}

const count = (s: Map<string, number>, key: string) => s.get(key) ?? 0;
const routeCount = (route: string, status: number) =>
  `http_request_duration_seconds_count{method="GET",route="${route}",status_code="${status}"}`;

let srv: TestServer;
let plain: TestServer;
beforeAll(async () => {
  [srv, plain] = await Promise.all([startTestServer({ seed: 'demo', metrics: true }), startTestServer({ seed: 'none' })]);
});
afterAll(async () => {
  await Promise.all([srv?.close(), plain?.close()]);
});

async function scrape(): Promise<Map<string, number>> {
  const r = await call(srv.baseUrl, 'GET', '/metrics');
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return samples(r.text);
}

describe('GET /metrics', () => {
  it('counts requests by method, route pattern and status, and token failures by reason', async () => {
    const before = await scrape();
    const token = await getToken(srv.baseUrl);
    for (let i = 0; i < 3; i++) expect((await call(srv.baseUrl, 'GET', '/v2/chambers?per_page=1', { token })).status).toBe(200);
    expect((await call(srv.baseUrl, 'GET', '/v2/chambers/nosuchchamber', { token })).status).toBe(404);
    expect((await call(srv.baseUrl, 'GET', '/no/such/path')).status).toBe(404);
    const refused = async (client_id: string, client_secret: string) =>
      (await call(srv.baseUrl, 'POST', '/v2/auth/token', { body: { grant_type: 'client_credentials', client_id, client_secret } })).status;
    expect(await refused(TEST_CLIENT_ID, 'not-the-secret')).toBe(401);
    expect(await refused(TEST_CLIENT_ID, 'not-the-secret-either')).toBe(401);
    expect(await refused('nobody-of-that-name', 'whatever')).toBe(401);
    const after = await scrape();

    const moved = (key: string) => count(after, key) - count(before, key);
    expect(moved(routeCount('/v2/chambers', 200))).toBe(3);
    expect(moved(routeCount('/v2/chambers/:id', 404))).toBe(1);
    expect(moved(routeCount('unmatched', 404))).toBe(1); // a path nobody routes is one label, not one per path
    expect(moved('chamberctl_token_failures_total{reason="wrong_secret"}')).toBe(2);
    expect(moved('chamberctl_token_failures_total{reason="unknown_client"}')).toBe(1);
    expect(moved('chamberctl_token_failures_total{reason="rate_limited"}')).toBe(0);
    // the histogram's buckets are cumulative and end in +Inf = _count
    const key = '{le="+Inf",method="GET",route="/v2/chambers",status_code="200"}';
    expect(count(after, `http_request_duration_seconds_bucket${key}`)).toBe(count(after, routeCount('/v2/chambers', 200)));
    expect(after.get('process_cpu_seconds_total')).toBeGreaterThan(0);
  });

  it('names every reason it counts token failures by, in its help and as series from the start', async () => {
    const r = await call(srv.baseUrl, 'GET', '/metrics');
    const reasons = ['unknown_client', 'wrong_secret', 'revoked_client', 'rate_limited'];
    expect(r.text).toContain(`# HELP chamberctl_token_failures_total Token requests refused, by reason: ${reasons.join(', ')}.\n`);
    const s = samples(r.text);
    for (const reason of reasons) expect(s.has(`chamberctl_token_failures_total{reason="${reason}"}`), reason).toBe(true);
  });

  it(`shows the pool's connections where there is a pool (${TEST_BACKEND})`, async () => {
    const s = await scrape();
    if (srv.server.store.poolStats) {
      expect(s.get('chamberctl_db_pool_connections{state="open"}')).toBeGreaterThanOrEqual(1);
      expect(s.get('chamberctl_db_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(0);
      expect(s.get('chamberctl_db_pool_waiting_requests')).toBe(0);
    } else {
      // SQLite: one connection in the process, nothing to pool or wait for
      expect(TEST_BACKEND).toBe('sqlite');
      expect([...s.keys()].filter((k) => k.startsWith('chamberctl_db_pool'))).toEqual([]);
    }
  });

  it('is a 404 in JSON without --metrics, and only GET is allowed with it', async () => {
    const off = await call(plain.baseUrl, 'GET', '/metrics');
    expect(off.status).toBe(404);
    expect(off.body).toEqual({ error: 'no such path: GET /metrics' });
    const post = await call(srv.baseUrl, 'POST', '/metrics');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('is in the published documents exactly when the server serves it', async () => {
    for (const v of ['v1', 'v2']) {
      const withMetrics = (await call(srv.baseUrl, 'GET', `/${v}/openapi.json`)).body;
      expect(withMetrics.paths['/metrics'].get.operationId).toBe('getMetrics');
      expect(withMetrics.paths['/metrics'].servers).toEqual([expect.objectContaining({ url: srv.baseUrl })]);
      const without = (await call(plain.baseUrl, 'GET', `/${v}/openapi.json`)).body;
      expect(Object.keys(without.paths)).not.toContain('/metrics');
      expect(Object.keys(without.paths)).toEqual(Object.keys(withMetrics.paths).filter((p) => p !== '/metrics'));
    }
  });
});
