// The token endpoint bounds its cost per caller (docs/server-behaviour.md#tokens): past 30 failed
// client authentications from one address within a minute, 429 before any secret is hashed; a
// client verified recently is checked from memory. (bench:token measures a good client's latency
// under a flood of wrong secrets.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAILURE_LIMIT } from '../../src/server/auth/credential-guard.js';
import { hashSecret } from '../../src/server/auth/secrets.js';
import { call } from '../helpers/http.js';
import { startTestServer, TEST_CLIENT_ID, TEST_CLIENT_SECRET, type TestServer } from '../helpers/server.js';

let srv: TestServer;
let clock = Date.parse('2026-06-01T08:00:00Z');
beforeAll(async () => {
  srv = await startTestServer({ seed: 'none', now: () => new Date(clock) });
});
afterAll(() => srv.close());

const tokenRequest = (secret: string, clientId = TEST_CLIENT_ID) =>
  call(srv.baseUrl, 'POST', '/v2/auth/token', { body: { grant_type: 'client_credentials', client_id: clientId, client_secret: secret } });

describe('the token endpoint under a flood of wrong secrets', () => {
  it('answers 401 up to the limit, then 429 (OAuth-shaped, no-store, Retry-After); a remembered client still gets tokens', async () => {
    expect((await tokenRequest(TEST_CLIENT_SECRET)).status).toBe(200); // verified once: remembered
    // a burst: more wrong secrets at once than the limit allows to be hashed
    const burst = await Promise.all(Array.from({ length: FAILURE_LIMIT + 20 }, (_, i) => tokenRequest(`wrong-${i}`)));
    const statuses = burst.map((r) => r.status);
    // FAILURE_LIMIT checks go ahead, the rest are 429 before any hashing. A check that went
    // ahead answers 401, or, when the machine is so loaded that its scrypt outlasts the 4 s
    // answer deadline (seen with another suite on the same two cores), the deadline's 503:
    // either way it was counted, which is what the limit is about.
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    const admitted = burst.filter((r) => r.status !== 429);
    expect(admitted).toHaveLength(FAILURE_LIMIT);
    for (const r of admitted) if (r.status !== 401) expect({ status: r.status, error: r.body.error }).toEqual({ status: 503, error: 'the database is unavailable; try again shortly' });
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThan(0);
    const limited = burst.find((r) => r.status === 429)!;
    expect(limited.body.error).toBe('temporarily_unavailable');
    expect(limited.body.error_description).toMatch(/too many failed client authentications/);
    expect(limited.headers.get('cache-control')).toBe('no-store');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);

    // the good client, checked from memory, is not held up by its address's failures
    const good = await tokenRequest(TEST_CLIENT_SECRET);
    expect(good.status).toBe(200);
    expect(good.body.access_token).toBeTruthy();
    // a wrong secret for the remembered client is not taken from memory: still limited
    expect((await tokenRequest('not-the-secret')).status).toBe(429);
  });

  it('lets the address try again once the minute has passed', async () => {
    clock += 61_000;
    expect((await tokenRequest('wrong-again')).status).toBe(401);
    expect((await tokenRequest(TEST_CLIENT_SECRET)).status).toBe(200);
  });

  it('forgets remembered credentials when the secret changes', async () => {
    expect((await tokenRequest(TEST_CLIENT_SECRET)).status).toBe(200);
    await srv.server.store.rotateClient(TEST_CLIENT_ID, await hashSecret('AnotherSecret0123456789'), new Date(clock), 0);
    expect((await tokenRequest(TEST_CLIENT_SECRET)).status).toBe(401);
    expect((await tokenRequest('AnotherSecret0123456789')).status).toBe(200);
    await srv.server.store.rotateClient(TEST_CLIENT_ID, await hashSecret(TEST_CLIENT_SECRET), new Date(clock), 0);
  });
});
