import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/start.js';
import { call } from '../helpers/http.js';
import { startTestServer, TEST_CLIENT_ID, TEST_CLIENT_SECRET, type TestServer } from '../helpers/server.js';

let clock = new Date('2026-06-01T12:00:00Z').getTime();
let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ seed: 'none', now: () => new Date(clock) });
});
afterAll(() => srv.close());

const creds = { grant_type: 'client_credentials', client_id: TEST_CLIENT_ID, client_secret: TEST_CLIENT_SECRET };
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const form = (o: Record<string, string>) => ({
  raw: new URLSearchParams(o).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

function expectNoStore(headers: Headers) {
  expect(headers.get('cache-control')).toBe('no-store');
  expect(headers.get('pragma')).toBe('no-cache');
}

describe('token endpoint', () => {
  for (const version of ['v1', 'v2']) {
    it(`${version}: issues a bearer token from a JSON body`, async () => {
      const r = await call(srv.baseUrl, 'POST', `/${version}/auth/token`, { body: creds });
      expect(r.status).toBe(200);
      expect(r.body.token_type).toBe('Bearer');
      expect(r.body.expires_in).toBe(3600);
      expect(typeof r.body.expires_in).toBe('number');
      // 32 random bytes, base64url
      expect(r.body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expectNoStore(r.headers);
    });
  }

  it('accepts a form-encoded body', async () => {
    const r = await call(srv.baseUrl, 'POST', '/v2/auth/token', form(creds));
    expect(r.status).toBe(200);
    expect(r.body.access_token).toBeTruthy();
  });

  it('accepts HTTP Basic client authentication', async () => {
    const r = await call(srv.baseUrl, 'POST', '/v2/auth/token', {
      ...form({ grant_type: 'client_credentials' }),
      headers: { ...form({}).headers, authorization: basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
    });
    expect(r.status).toBe(200);
  });

  it('tolerates a matching client_id in the body alongside Basic', async () => {
    const r = await call(srv.baseUrl, 'POST', '/v2/auth/token', {
      body: { grant_type: 'client_credentials', client_id: TEST_CLIENT_ID },
      headers: { authorization: basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
    });
    expect(r.status).toBe(200);
  });

  it('rejects credentials both in Basic and in the body with invalid_request', async () => {
    const r = await call(srv.baseUrl, 'POST', '/v2/auth/token', {
      body: creds,
      headers: { authorization: basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid_request');
    expect(typeof r.body.error_description).toBe('string');
    expectNoStore(r.headers);
  });

  it('answers wrong credentials with 401 invalid_client, and no Basic challenge when Basic was not used', async () => {
    const r = await call(srv.baseUrl, 'POST', '/v1/auth/token', { body: { ...creds, client_secret: 'wrong' } });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
    expect(r.headers.get('www-authenticate')).toBeNull();
    expectNoStore(r.headers);
    const unknown = await call(srv.baseUrl, 'POST', '/v1/auth/token', { body: { ...creds, client_id: 'nobody' } });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe('invalid_client');
  });

  it('adds a Basic challenge when the client tried Basic', async () => {
    const r = await call(srv.baseUrl, 'POST', '/v2/auth/token', {
      ...form({ grant_type: 'client_credentials' }),
      headers: { ...form({}).headers, authorization: basic(TEST_CLIENT_ID, 'nope') },
    });
    expect(r.status).toBe(401);
    expect(r.body.error).toBe('invalid_client');
    expect(r.headers.get('www-authenticate')).toBe('Basic realm="chamber-directory"');
  });

  it.each([
    ['grant_type', { client_id: TEST_CLIENT_ID, client_secret: TEST_CLIENT_SECRET }],
    ['client_id', { grant_type: 'client_credentials', client_secret: TEST_CLIENT_SECRET }],
    ['client_secret', { grant_type: 'client_credentials', client_id: TEST_CLIENT_ID }],
  ])('answers a missing %s with 400 invalid_request', async (_name, body) => {
    const r = await call(srv.baseUrl, 'POST', '/v2/auth/token', { body });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid_request');
    expectNoStore(r.headers);
  });

  it('answers another grant_type with unsupported_grant_type', async () => {
    const r = await call(srv.baseUrl, 'POST', '/v2/auth/token', { body: { ...creds, grant_type: 'password' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('unsupported_grant_type');
  });

  it('answers a malformed body with invalid_request, not a 5xx', async () => {
    for (const raw of ['{"grant_type":', '[1,2]', '"x"', 'null']) {
      const r = await call(srv.baseUrl, 'POST', '/v2/auth/token', { raw, headers: { 'content-type': 'application/json' } });
      expect(r.status, raw).toBe(400);
      expect(r.body.error, raw).toBe('invalid_request');
    }
    const typed = await call(srv.baseUrl, 'POST', '/v2/auth/token', { body: { ...creds, client_secret: 12345 } });
    expect(typed.status).toBe(400);
    expect(typed.body.error).toBe('invalid_request');
    const repeated = await call(srv.baseUrl, 'POST', '/v2/auth/token', {
      raw: 'grant_type=client_credentials&client_id=a&client_id=b&client_secret=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(repeated.status).toBe(400);
    expect(repeated.body.error).toBe('invalid_request');
  });

  it('keeps only hashes of secrets and tokens in the database', async () => {
    const r = await call(srv.baseUrl, 'POST', '/v2/auth/token', { body: creds });
    const dump = JSON.stringify([await srv.rows('clients'), await srv.rows('tokens')]);
    expect(dump).not.toContain(TEST_CLIENT_SECRET);
    expect(dump).not.toContain(r.body.access_token);
    expect(dump).toContain('scrypt$');
  });
});

describe('bearer tokens', () => {
  it('answers a missing token with 401 and a bare Bearer challenge', async () => {
    const r = await call(srv.baseUrl, 'GET', '/v2/chambers');
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: 'invalid_token', error_description: expect.any(String) });
    expect(r.headers.get('www-authenticate')).toBe('Bearer realm="chamber-directory"');
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it.each([
    ['an unknown token', 'Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a malformed header', 'Bearer'],
    ['another scheme', 'Token abc'],
  ])('answers %s with invalid_token in the challenge', async (_what, header) => {
    const r = await call(srv.baseUrl, 'GET', '/v1/chambers', { headers: { authorization: header } });
    expect(r.status).toBe(401);
    expect(r.body.error).toBe('invalid_token');
    expect(r.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="chamber-directory", error="invalid_token", error_description="[^"]+"$/,
    );
  });

  it('binds a token to the version that issued it', async () => {
    const v1 = (await call(srv.baseUrl, 'POST', '/v1/auth/token', { body: creds })).body.access_token;
    const v2 = (await call(srv.baseUrl, 'POST', '/v2/auth/token', { body: creds })).body.access_token;
    expect((await call(srv.baseUrl, 'GET', '/v1/chambers', { token: v1 })).status).toBe(200);
    expect((await call(srv.baseUrl, 'GET', '/v2/chambers', { token: v2 })).status).toBe(200);
    const cross1 = await call(srv.baseUrl, 'GET', '/v2/chambers', { token: v1 });
    expect(cross1.status).toBe(401);
    expect(cross1.body.error_description).toMatch(/v1/);
    expect((await call(srv.baseUrl, 'GET', '/v1/chambers', { token: v2 })).status).toBe(401);
  });

  it('expires a token after 3600 seconds and purges it', async () => {
    const token = (await call(srv.baseUrl, 'POST', '/v2/auth/token', { body: creds })).body.access_token;
    clock += 3599_000;
    expect((await call(srv.baseUrl, 'GET', '/v2/chambers', { token })).status).toBe(200);
    clock += 1_000;
    const r = await call(srv.baseUrl, 'GET', '/v2/chambers', { token });
    expect(r.status).toBe(401);
    expect(r.body.error_description).toMatch(/expired/);
    expect(r.headers.get('www-authenticate')).toContain('error="invalid_token"');
    // the next token request purges every expired token
    await call(srv.baseUrl, 'POST', '/v2/auth/token', { body: creds });
    const left = (await srv.rows('tokens')).filter((t) => Number(t.expires_at) <= clock);
    expect(left).toEqual([]);
    expect((await srv.rows('tokens')).length).toBeGreaterThan(0);
  });
});

describe('discovery', () => {
  it('names the listening address, never the Host header the request sent', async () => {
    for (const path of ['/.well-known/oauth-authorization-server/v2', '/v2/openapi.json']) {
      const r = await call(srv.baseUrl, 'GET', path, { headers: { host: 'evil.example' } });
      expect(r.status).toBe(200);
      expect(r.text).not.toContain('evil.example');
      expect(r.text).toContain(srv.baseUrl);
    }
  });

  it('names --public-url when given', async () => {
    const behind = await startServer({
      host: '127.0.0.1',
      port: 0,
      dbPath: ':memory:',
      seed: 'none',
      clientId: TEST_CLIENT_ID,
      clientSecret: TEST_CLIENT_SECRET,
      publicUrl: 'https://directory.example.org/chamber',
    });
    try {
      const meta = await call(behind.baseUrl, 'GET', '/.well-known/oauth-authorization-server/v1', { headers: { host: 'evil.example' } });
      expect(meta.body.issuer).toBe('https://directory.example.org/chamber/v1');
      expect(meta.body.token_endpoint).toBe('https://directory.example.org/chamber/v1/auth/token');
      const doc = await call(behind.baseUrl, 'GET', '/v2/openapi.json');
      expect(doc.body.servers[0].url).toBe('https://directory.example.org/chamber/v2');
    } finally {
      await behind.close();
    }
  });

  it.each(['v1', 'v2'])('publishes RFC 8414 metadata for %s', async (version) => {
    const r = await call(srv.baseUrl, 'GET', `/.well-known/oauth-authorization-server/${version}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      issuer: `${srv.baseUrl}/${version}`,
      token_endpoint: `${srv.baseUrl}/${version}/auth/token`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: expect.arrayContaining(['client_secret_basic', 'client_secret_post']),
    });
  });

  it('serves /healthz without auth', async () => {
    const r = await call(srv.baseUrl, 'GET', '/healthz');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok', database: 'ok' });
  });

  it('serves /livez without auth: 200 while the process runs, even when the database does not answer', async () => {
    const own = await startTestServer({ seed: 'none' });
    try {
      expect((await call(own.baseUrl, 'GET', '/livez')).body).toEqual({ status: 'ok' });
      await own.server.store.close(); // the database is gone: not ready, still alive
      expect((await call(own.baseUrl, 'GET', '/healthz')).status).toBe(503);
      const live = await call(own.baseUrl, 'GET', '/livez');
      expect(live.status).toBe(200);
      expect(live.body).toEqual({ status: 'ok' });
      expect((await call(own.baseUrl, 'POST', '/livez')).status).toBe(405);
    } finally {
      await own.server.app.close();
      await own.close().catch(() => undefined);
    }
  });
});
