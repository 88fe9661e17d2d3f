import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../../src/core/exit-codes.js';
import type { ApiVersion } from '../../src/contract/index.js';
import type { CachedToken } from '../../src/config/profile.js';
import { HttpClient } from '../../src/client/http.js';
import { EXPIRY_MARGIN_MS, TokenProvider, isFresh, requestToken, type TokenCache } from '../../src/client/tokens.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: 'none' });
});
afterAll(() => server.close());

/** An in-memory cache standing in for the profile. */
function memoryCache(initial: Partial<Record<ApiVersion, CachedToken>> = {}) {
  const saved: Partial<Record<ApiVersion, CachedToken>> = { ...initial };
  const cache: TokenCache = { load: (v) => saved[v], save: (v, t) => void (saved[v] = t) };
  return { cache, saved };
}

function provider(opts: { now: () => Date; cache: TokenCache; secret?: string }) {
  const http = new HttpClient({ retry: { maxAttempts: 1 } });
  const tokens = new TokenProvider({
    http,
    baseUrl: server.baseUrl,
    credentials: { clientId: server.clientId, clientSecret: opts.secret ?? server.clientSecret },
    cache: opts.cache,
    now: opts.now,
  });
  return { tokens, http };
}

describe('TokenProvider', () => {
  it('requests a token once, saves it, and reuses it until a minute before expiry', async () => {
    let now = new Date('2026-05-01T12:00:00Z');
    const { cache, saved } = memoryCache();
    const before = server.tokenRequests();
    const a = provider({ now: () => now, cache });
    const first = await a.tokens.token('v2');
    expect(await a.tokens.token('v2')).toBe(first);
    await a.http.close();
    expect(server.tokenRequests() - before).toBe(1);
    expect(saved.v2?.accessToken).toBe(first);
    expect(saved.v2?.expiresAt).toBe('2026-05-01T13:00:00.000Z');

    // a later command, 58 minutes on: still reused from the cache
    now = new Date(Date.parse(saved.v2!.expiresAt) - EXPIRY_MARGIN_MS - 1000);
    const b = provider({ now: () => now, cache });
    expect(await b.tokens.token('v2')).toBe(first);
    await b.http.close();
    expect(server.tokenRequests() - before).toBe(1);

    // within the last minute: renewed
    now = new Date(Date.parse(saved.v2!.expiresAt) - EXPIRY_MARGIN_MS + 1000);
    const c = provider({ now: () => now, cache });
    const renewed = await c.tokens.token('v2');
    await c.http.close();
    expect(renewed).not.toBe(first);
    expect(server.tokenRequests() - before).toBe(2);
    expect(saved.v2?.accessToken).toBe(renewed);
  });

  it('gets a new token when the one it fetched ages out during a long command', async () => {
    let now = new Date('2026-05-02T12:00:00Z');
    const { cache } = memoryCache();
    const before = server.tokenRequests();
    const p = provider({ now: () => now, cache });
    const first = await p.tokens.token('v2');
    now = new Date(now.getTime() + 59 * 60_000 + 30_000); // inside the last minute
    const second = await p.tokens.token('v2');
    expect(second).not.toBe(first);
    now = new Date(now.getTime() + 61 * 60_000); // the second one has expired too
    expect(await p.tokens.renew('v2', second)).not.toBe(second);
    await p.http.close();
    expect(server.tokenRequests() - before).toBe(3);
  });

  it('asks once however many requests wait for a token at the same time', async () => {
    const before = server.tokenRequests();
    const { tokens, http } = provider({ now: () => new Date(), cache: memoryCache().cache });
    const all = await Promise.all(Array.from({ length: 8 }, () => tokens.token('v1')));
    await http.close();
    expect(new Set(all).size).toBe(1);
    expect(server.tokenRequests() - before).toBe(1);
  });

  it('keeps tokens per version', async () => {
    const { cache, saved } = memoryCache();
    const { tokens, http } = provider({ now: () => new Date(), cache });
    const v1 = await tokens.token('v1');
    const v2 = await tokens.token('v2');
    await http.close();
    expect(v1).not.toBe(v2);
    expect(saved.v1?.accessToken).toBe(v1);
    expect(saved.v2?.accessToken).toBe(v2);
  });

  it('renews a refused cached token once, shared by all waiting requests', async () => {
    const stale: CachedToken = { accessToken: 'revoked-token', expiresAt: '2999-01-01T00:00:00Z', baseUrl: server.baseUrl };
    const { cache } = memoryCache({ v2: stale });
    const before = server.tokenRequests();
    const { tokens, http } = provider({ now: () => new Date(), cache });
    expect(await tokens.token('v2')).toBe('revoked-token');
    const renewed = await Promise.all([tokens.renew('v2', 'revoked-token'), tokens.renew('v2', 'revoked-token')]);
    expect(renewed[0]).toBeTruthy();
    expect(renewed[1]).toBe(renewed[0]);
    // the new token itself refused: no second request, the 401 stands
    expect(await tokens.renew('v2', renewed[0]!)).toBeUndefined();
    await http.close();
    expect(server.tokenRequests() - before).toBe(1);
  });

  it('renews a token that had worked each time the server revokes it, once for all requests refused together', async () => {
    const before = server.tokenRequests();
    const { tokens, http } = provider({ now: () => new Date(), cache: memoryCache().cache });
    const seen: string[] = [];
    let revoked = new Set<string>();
    // a stand-in request: 401 for a revoked token, 200 otherwise
    const send = async (token: string) => {
      seen.push(token);
      return { status: revoked.has(token) ? 401 : 200 };
    };
    for (let round = 0; round < 3; round++) {
      const working = await tokens.token('v2');
      expect((await tokens.authorized('v2', send)).status).toBe(200);
      revoked = new Set([...revoked, working]); // the server revokes it early
      const answers = await Promise.all([1, 2, 3, 4].map(() => tokens.authorized('v2', send)));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      expect(await tokens.token('v2')).not.toBe(working);
    }
    await http.close();
    // one token at the start and one per revocation, however many requests were refused
    expect(server.tokenRequests() - before).toBe(4);
    expect(new Set(seen).size).toBe(4);
  });

  it('ignores a cached token from another server', async () => {
    const other: CachedToken = { accessToken: 'elsewhere', expiresAt: '2999-01-01T00:00:00Z', baseUrl: 'http://other:1' };
    expect(isFresh(other, server.baseUrl, new Date())).toBe(false);
    const { tokens, http } = provider({ now: () => new Date(), cache: memoryCache({ v2: other }).cache });
    expect(await tokens.token('v2')).not.toBe('elsewhere');
    await http.close();
  });

  it('fails with exit 3 on wrong credentials, and does not ask twice', async () => {
    const before = server.tokenRequests();
    const { tokens, http } = provider({ now: () => new Date(), cache: memoryCache().cache, secret: 'wrong' });
    const err = await tokens.token('v2').catch((e: unknown) => e);
    const again = await tokens.token('v2').catch((e: unknown) => e);
    await http.close();
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(ExitCode.AUTH);
    expect((err as CliError).message).toContain('rejected the client credentials');
    expect(again).toBe(err);
    expect(server.tokenRequests() - before).toBe(1);
  });

  it('issuedInfo: a token the server issued in this command, whatever is cached (one request, then reused)', async () => {
    const now = () => new Date();
    const { cache } = memoryCache();
    const first = provider({ now, cache });
    const cached = await first.tokens.tokenInfo('v2');
    await first.http.close();
    const before = server.tokenRequests();
    const { tokens, http } = provider({ now, cache });
    expect((await tokens.tokenInfo('v2')).accessToken).toBe(cached.accessToken); // from the cache
    const issued = await tokens.issuedInfo('v2');
    expect(issued.accessToken).not.toBe(cached.accessToken);
    expect(issued.scope).toBe('write');
    expect((await tokens.issuedInfo('v2')).accessToken).toBe(issued.accessToken);
    expect(await tokens.token('v2')).toBe(issued.accessToken);
    await http.close();
    expect(server.tokenRequests() - before).toBe(1);
  });

  it("words refused credentials as the caller says, for RFC 6749's 400 invalid_client as for a 401", async () => {
    const refusing = createServer((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'invalid_client', error_description: 'unknown client' }));
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
    const http = new HttpClient({ retry: { maxAttempts: 1 } });
    try {
      const creds = { clientId: 'c', clientSecret: 's' };
      const refused = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as CliError);
      const err = (await refused(requestToken(http, baseUrl, 'v2', creds, () => new Date(), (said, url) => `${url} said: ${said}`)))!;
      expect(err).toBeInstanceOf(CliError);
      expect(err.exitCode).toBe(ExitCode.AUTH);
      expect(err.message).toBe(`${baseUrl} said: unknown client`);
      const plain = await refused(requestToken(http, baseUrl, 'v2', creds, () => new Date()));
      expect(plain?.message).toBe(`${baseUrl} rejected the client credentials (unknown client); run \`chamberctl login\``);
    } finally {
      await http.close();
      refusing.close();
    }
  });
});
