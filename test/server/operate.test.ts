// What an operator relies on (docs/operations/shared-deployment.md): request
// ids kept, replaced or made, echoed and in every log line of the request; a request answered
// within the deadline whatever the database does; a client's own broken socket never logged as a
// database outage; readable text on a terminal from the same logger.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REQUEST_DEADLINE_MS } from '../../src/server/app.js';
import { startServer } from '../../src/server/start.js';
import { StorageUnavailable } from '../../src/storage/unavailable.js';
import { call } from '../helpers/http.js';
import { logCapture } from '../helpers/log-capture.js';
import { getToken, startTestServer, TEST_CLIENT_ID, type TestServer } from '../helpers/server.js';

let srv: TestServer;
const { lines, rawLog, entries, ofRequest } = logCapture();
let token: string;

beforeAll(async () => {
  srv = await startTestServer({ rawLog });
  token = await getToken(srv.baseUrl);
});
afterAll(() => srv?.close());

describe('request ids', () => {
  it("keeps a client's well-formed X-Request-Id, echoes it, and logs the request under it", async () => {
    const r = await call(srv.baseUrl, 'GET', '/v2/chambers?per_page=1', { token, headers: { 'x-request-id': 'deploy-42/abc.DEF_1' } });
    expect(r.headers.get('x-request-id')).toBe('deploy-42/abc.DEF_1');
    const logged = ofRequest('deploy-42/abc.DEF_1');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ msg: 'request completed', req: { method: 'GET', url: '/v2/chambers?per_page=1' }, res: { statusCode: 200 } });
  });

  it('replaces one that is empty, too long or not visible ASCII, and makes one when there is none', async () => {
    const seen = new Set<string>();
    for (const given of ['', 'x'.repeat(129), 'two words', 'naïve', undefined]) {
      // not /livez: a probe's 200 is a debug line, not written at serve's level
      const r = await call(srv.baseUrl, 'GET', '/.well-known/oauth-authorization-server/v2', given === undefined ? {} : { headers: { 'x-request-id': given } });
      const id = r.headers.get('x-request-id')!;
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(seen.has(id)).toBe(false);
      seen.add(id);
      expect(ofRequest(id)).toHaveLength(1);
    }
    // 128 visible characters are kept
    const long = '~'.repeat(128);
    expect((await call(srv.baseUrl, 'GET', '/livez', { headers: { 'x-request-id': long } })).headers.get('x-request-id')).toBe(long);
  });
});

describe('the database not answering', () => {
  it(`answers 503 JSON with Retry-After within ${REQUEST_DEADLINE_MS / 1000} s when a query hangs, logs why under the request's id, and serves again after`, async () => {
    const store = srv.server.store as unknown as Record<string, unknown>;
    store.listChambers = () => new Promise(() => undefined); // a query that never comes back
    try {
      const started = Date.now();
      const r = await call(srv.baseUrl, 'GET', '/v2/chambers', { token, headers: { 'x-request-id': 'hung-1' } });
      const took = Date.now() - started;
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('1');
      expect(r.body).toEqual({ error: 'the database is unavailable; try again shortly' });
      expect(took).toBeGreaterThanOrEqual(REQUEST_DEADLINE_MS - 50);
      expect(took).toBeLessThan(5000);
      const logged = ofRequest('hung-1');
      expect(logged.map((e) => [e.level, e.msg])).toEqual([
        [40, `answered 503: the database is unavailable (no answer within ${REQUEST_DEADLINE_MS / 1000} s)`],
        [30, 'request completed'],
      ]);
    } finally {
      delete store.listChambers;
    }
    expect((await call(srv.baseUrl, 'GET', '/v2/chambers?per_page=1', { token })).status).toBe(200);
  });

  it('cuts a POST too: a token request whose lookup hangs gets 503 within the deadline', async () => {
    const store = srv.server.store as unknown as Record<string, unknown>;
    store.clientAuth = () => new Promise(() => undefined);
    try {
      const started = Date.now();
      const r = await call(srv.baseUrl, 'POST', '/v2/auth/token', {
        body: { grant_type: 'client_credentials', client_id: TEST_CLIENT_ID, client_secret: srv.clientSecret },
      });
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('1');
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      delete store.clientAuth;
    }
  });

  it('answers 503 at once when the store says the database is unavailable, naming the reason in the log', async () => {
    const store = srv.server.store as unknown as Record<string, unknown>;
    store.getChamber = () => Promise.reject(new StorageUnavailable('connection refused'));
    try {
      const r = await call(srv.baseUrl, 'GET', '/v2/chambers/ch_anything', { token, headers: { 'x-request-id': 'refused-1' } });
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('1');
      // its own line names the reason; the warning is its own, or (a 503 less than a second
      // before: the previous test's) the next second's count (test/server/log-lines.test.ts)
      expect(ofRequest('refused-1')).toContainEqual(expect.objectContaining({ msg: 'request completed', reason: 'connection refused', res: { statusCode: 503 } }));
      await vi.waitFor(() => expect(entries().filter((e) => e.level === 40 && e.reason === 'connection refused')).toHaveLength(1), { timeout: 1500 });
    } finally {
      delete store.getChamber;
    }
  });
});

describe("a client's own broken connection", () => {
  it('a reset in the middle of POST /v2/auth/token is not a database outage, and the server goes on', async () => {
    const before = lines.length;
    const { port } = new URL(srv.baseUrl);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          'POST /v2/auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Request-Id: reset-1\r\nContent-Length: 200\r\n\r\n{"grant_type":"client_',
        );
        setTimeout(() => {
          socket.resetAndDestroy();
          resolve();
        }, 100);
      });
      socket.on('error', reject);
    });
    await new Promise((r) => setTimeout(r, 300));
    const after = entries().slice(before);
    expect(after.filter((e) => /database/i.test(e.msg))).toEqual([]);
    expect(after.filter((e) => e.level >= 50)).toEqual([]);
    const ok = await call(srv.baseUrl, 'POST', '/v2/auth/token', {
      body: { grant_type: 'client_credentials', client_id: TEST_CLIENT_ID, client_secret: srv.clientSecret },
    });
    expect(ok.status).toBe(200);
  });
});

describe('readable text on a terminal', () => {
  it('writes one line per request: time, level, method, path, status, time taken, request id', async () => {
    const text: string[] = [];
    const server = await startServer({
      host: '127.0.0.1',
      port: 0,
      dbPath: ':memory:',
      seed: 'none',
      logging: { destination: { write: (s: string) => text.push(s) }, format: 'text', requests: true, colour: false },
    });
    try {
      await call(server.baseUrl, 'GET', '/.well-known/oauth-authorization-server/v2', { headers: { 'x-request-id': 'tty-1' } });
      const written = text.join('').split('\n').filter(Boolean);
      expect(written.filter((l) => l.includes('tty-1'))).toEqual([expect.stringMatching(/^\[\d\d:\d\d:\d\d\] INFO: GET \/\.well-known\/oauth-authorization-server\/v2 200 \d+\.\dms from 127\.0\.0\.1 \[tty-1\]$/)]);
      expect(written.every((l) => !l.startsWith('{'))).toBe(true);
    } finally {
      await server.close();
    }
  });
});
