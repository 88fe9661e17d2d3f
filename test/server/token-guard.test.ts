// The token endpoint bounds its cost per caller (docs/server-behaviour.md#tokens): past 30 failed
// client authentications within a minute from one address (IPv6: its /64) or of one client,
// 429 before any secret is hashed; a client verified recently is checked from memory.
// (bench:token measures a good client's latency under a flood of wrong secrets.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressKey, FAILURE_LIMIT } from '../../src/server/auth/credential-guard.js';
import { hashSecret } from '../../src/server/auth/secrets.js';
import { parseTrustProxy } from '../../src/server/trust-proxy.js';
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

describe('what the failure limit counts an address by', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:db8:1:2::', '2001:db8:1:2::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
    ['2001:db8:1::192.0.2.1', '2001:db8:1:0::/64'],
  ])('%s → %s', (address, key) => {
    expect(addressKey(address)).toBe(key);
  });
});

/** `count` wrong secrets for `clientId`, each from the address `from(i)`, a few at a time (never past the deadline on a busy machine). */
async function wrongSecrets(s: TestServer, clientId: string, count: number, from: (i: number) => string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 5) {
    const batch = Array.from({ length: Math.min(5, count - i) }, (_, j) => tokenAt(s, from(i + j), clientId, `wrong-${i + j}`));
    statuses.push(...(await Promise.all(batch)).map((r) => r.status));
  }
  return statuses;
}
const tokenAt = (s: TestServer, address: string, clientId: string, secret: string) =>
  call(s.baseUrl, 'POST', '/v2/auth/token', {
    body: { grant_type: 'client_credentials', client_id: clientId, client_secret: secret },
    headers: { 'x-forwarded-for': address },
  });

describe('the failure limit behind --trust-proxy', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'none', trustProxy: parseTrustProxy('true') });
  });
  afterAll(() => s.close());

  it('counts an IPv6 address by its /64: another address of the prefix is limited, another prefix is not', async () => {
    const statuses = await wrongSecrets(s, 'no-such-client', FAILURE_LIMIT, (i) => `2001:db8:1:2::${(i + 1).toString(16)}`);
    expect(statuses).toEqual(statuses.map(() => 401));
    const same = await tokenAt(s, '2001:db8:1:2:ffff:ffff:ffff:fffe', 'no-such-client', 'wrong');
    expect(same.status).toBe(429);
    expect(same.body.error_description).toMatch(/from this address/);
    expect((await tokenAt(s, '2001:db8:1:3::1', 'no-such-client', 'wrong')).status).toBe(401);
  });

  it('limits one client flooded from many addresses; a remembered client, other clients and other addresses go on', async () => {
    const good = await tokenAt(s, '192.0.2.1', TEST_CLIENT_ID, TEST_CLIENT_SECRET);
    expect(good.status).toBe(200); // verified once: remembered
    const statuses = await wrongSecrets(s, TEST_CLIENT_ID, FAILURE_LIMIT, (i) => `198.51.100.${i + 1}`);
    expect(statuses).toEqual(statuses.map(() => 401));
    // one more wrong secret for that client, from an address that has sent nothing: 429
    const limited = await tokenAt(s, '203.0.113.9', TEST_CLIENT_ID, 'wrong-again');
    expect(limited.status).toBe(429);
    expect(limited.body.error_description).toMatch(/of this client/);
    // the same address is not limited for another id
    expect((await tokenAt(s, '203.0.113.9', 'no-such-client', 'wrong')).status).toBe(401);
    // the client's own secret, verified recently, is checked from memory and served
    expect((await tokenAt(s, '203.0.113.10', TEST_CLIENT_ID, TEST_CLIENT_SECRET)).status).toBe(200);
  });
});
