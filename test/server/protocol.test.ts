import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { getToken, startTestServer, type TestServer } from '../helpers/server.js';

let srv: TestServer;
let v1: string;
let v2: string;
beforeAll(async () => {
  srv = await startTestServer({ seed: 'none' });
  [v1, v2] = await Promise.all([getToken(srv.baseUrl, 'v1'), getToken(srv.baseUrl, 'v2')]);
});
afterAll(() => srv.close());

describe('405 with Allow', () => {
  it.each([
    ['POST', '/v1/chambers', '', 'GET, HEAD'],
    ['POST', '/v1/chambers/x/members', '', 'GET, HEAD'],
    ['GET', '/v1/chambers/x/events', '', ''],
    ['DELETE', '/v2/chambers', '', 'GET, HEAD, POST'],
    ['PUT', '/v2/chambers/x', '', 'GET, HEAD'],
    ['GET', '/v2/auth/token', '', 'POST'],
    ['PATCH', '/v2/chambers/x/events', '', 'GET, HEAD'],
  ])('%s %s', async (method, path, _x, allow) => {
    const r = await call(srv.baseUrl, method, path, { token: path.startsWith('/v1') ? v1 : v2 });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe(allow);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(typeof r.body.error).toBe('string');
  });

  it('names the version that serves the method', async () => {
    const r = await call(srv.baseUrl, 'POST', '/v1/chambers', { token: v1, body: {} });
    expect(r.body.error).toMatch(/v2/);
  });
});

describe('paths outside the versions', () => {
  it.each(['/healthz', '/.well-known/oauth-authorization-server/v1'])('POST %s is a 405 with Allow: GET, HEAD', async (path) => {
    const r = await call(srv.baseUrl, 'POST', path);
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers a malformed %-escape with a JSON 400 and a very long id with a 404', async () => {
    const bad = await call(srv.baseUrl, 'GET', '/v2/chambers/%E0%A4%A', { token: v2 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['error']);
    const long = await call(srv.baseUrl, 'GET', `/v2/chambers/${'x'.repeat(2000)}`, { token: v2 });
    expect(long.status).toBe(404);
    expect(Object.keys(long.body)).toEqual(['error']);
  });
});

describe('unknown paths', () => {
  it.each(['/v3/chambers', '/v1/nothing', '/', '/v2/chambers/x/y/z'])('%s is a JSON 404', async (path) => {
    const r = await call(srv.baseUrl, 'GET', path, { token: v2 });
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(typeof r.body.error).toBe('string');
  });
});

describe('request bodies', () => {
  it('answers a body over 1 MiB with 413 JSON (OAuth-shaped and uncached on the token endpoint)', async () => {
    const big = { name: 'x'.repeat(1024 * 1024 + 10) };
    const r = await call(srv.baseUrl, 'POST', '/v2/chambers', { token: v2, body: big });
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ error: 'the request body is larger than 1 MiB' });
    const t = await call(srv.baseUrl, 'POST', '/v2/auth/token', { body: big });
    expect(t.status).toBe(413);
    expect(t.body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    expect(t.headers.get('cache-control')).toBe('no-store');
    expect(t.headers.get('pragma')).toBe('no-cache');
  });

  it('checks the token before reading the body', async () => {
    for (const raw of ['{bad', 'x'.repeat(1024 * 1024 + 10)]) {
      const r = await call(srv.baseUrl, 'POST', '/v2/chambers', { raw, headers: { 'content-type': 'application/json' } });
      expect(r.status).toBe(401);
      expect(r.body.error).toBe('invalid_token');
    }
  });

  it('answers 405 before reading the body', async () => {
    const r = await call(srv.baseUrl, 'POST', '/v1/chambers', { token: v1, raw: '{bad', headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, HEAD');
  });

  it.each([
    ['not JSON', '{"name": '],
    ['an array', '[]'],
    ['a string', '"chamber"'],
    ['null', 'null'],
    ['empty', ''],
  ])('answers a body that is %s with 400 {error}', async (_what, raw) => {
    const r = await call(srv.baseUrl, 'POST', '/v2/chambers', { token: v2, raw, headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body)).toEqual(['error']);
  });

  it.each([
    ['form encoding', 'application/x-www-form-urlencoded', 'name=x&type=hq'],
    ['text/plain', 'text/plain', JSON.stringify({ name: 'Text Chamber', type: 'hq', address: { street: '1 A St', city: 'Bonn', country: 'DE' } })],
    ['no Content-Type', undefined, JSON.stringify({ name: 'Bare Chamber', type: 'hq', address: { street: '1 A St', city: 'Bonn', country: 'DE' } })],
  ])('answers a body in %s on a resource route with 415, creating nothing', async (_what, type, raw) => {
    const before = (await call(srv.baseUrl, 'GET', '/v2/chambers?per_page=1', { token: v2 })).body.meta.total;
    const r = await call(srv.baseUrl, 'POST', '/v2/chambers', { token: v2, raw, headers: type ? { 'content-type': type } : {} });
    expect(r.status).toBe(415);
    expect(r.body).toEqual({ error: 'the request body must be JSON (Content-Type: application/json)' });
    expect((await call(srv.baseUrl, 'GET', '/v2/chambers?per_page=1', { token: v2 })).body.meta.total).toBe(before);
  });

  it('parses JSON with a charset parameter', async () => {
    const r = await call(srv.baseUrl, 'POST', '/v2/chambers', {
      token: v2,
      raw: JSON.stringify({ name: 'Charset Chamber', type: 'hq', address: { street: '1 A St', city: 'Bonn', country: 'DE' } }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(r.status).toBe(201);
  });

  it('the token endpoint takes JSON and form encoding only (415 otherwise, OAuth-shaped)', async () => {
    const raw = `grant_type=client_credentials&client_id=${srv.clientId}&client_secret=${srv.clientSecret}`;
    const form = await call(srv.baseUrl, 'POST', '/v2/auth/token', { raw, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(200);
    const text = await call(srv.baseUrl, 'POST', '/v2/auth/token', { raw, headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(text.body).toEqual({ error: 'invalid_request', error_description: expect.stringMatching(/application\/x-www-form-urlencoded/) });
    expect(text.headers.get('cache-control')).toBe('no-store');
  });

  it('the token endpoint takes at most 4 KiB', async () => {
    const pad = 'x'.repeat(4 * 1024);
    const t = await call(srv.baseUrl, 'POST', '/v2/auth/token', { body: { grant_type: 'client_credentials', client_id: srv.clientId, client_secret: srv.clientSecret, pad } });
    expect(t.status).toBe(413);
    expect(t.body).toEqual({ error: 'invalid_request', error_description: 'the request body is larger than 4 KiB' });
    const ok = await call(srv.baseUrl, 'POST', '/v2/auth/token', { body: { grant_type: 'client_credentials', client_id: srv.clientId, client_secret: srv.clientSecret, pad: pad.slice(0, 3000) } });
    expect(ok.status).toBe(200);
  });
});
