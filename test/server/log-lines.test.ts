// What the operator reads in serve's log (issue 33, item 5; docs/operations/shared-deployment.md#logs): who was refused and
// why, one outage warning a second rather than one a request, health probes out of the way,
// credentials redacted wherever a client puts them, and the client's address as --trust-proxy
// decides it, in the log and in the audit trail.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FAILURE_LIMIT } from '../../src/server/auth/credential-guard.js';
import { hashSecret } from '../../src/server/auth/secrets.js';
import { startServer } from '../../src/server/start.js';
import { parseTrustProxy } from '../../src/server/trust-proxy.js';
import { StorageUnavailable } from '../../src/storage/unavailable.js';
import { runInProcess } from '../helpers/fake-context.js';
import { call } from '../helpers/http.js';
import { noteSecret } from '../helpers/run-logs.js';
import { logCapture, type LogEntry } from '../helpers/log-capture.js';
import { getToken, startTestServer, type TestServer } from '../helpers/server.js';

let srv: TestServer;
const { lines, rawLog, entries, ofRequest } = logCapture();
let token: string;

beforeAll(async () => {
  srv = await startTestServer({ rawLog });
  token = await getToken(srv.baseUrl);
});
afterAll(() => srv?.close());

describe('redaction', () => {
  it('masks Authorization, Proxy-Authorization, Cookie and X-Api-Key, and keeps the other headers', async () => {
    const values = ['Basic cHJveHk6UHJveHlTZWNyZXQxMjM=', 'session=CookieSecret0123456789', 'ApiKeySecret0123456789'];
    for (const v of values) noteSecret(v);
    await call(srv.baseUrl, 'GET', '/v2/chambers?per_page=1', {
      token,
      headers: { 'x-request-id': 'redact-headers', 'proxy-authorization': values[0]!, cookie: values[1]!, 'X-Api-Key': values[2]!, 'user-agent': 'redaction-test/1' },
    });
    const [line] = ofRequest('redact-headers');
    expect(line!.req!.headers).toMatchObject({
      authorization: '[redacted]',
      'proxy-authorization': '[redacted]',
      cookie: '[redacted]',
      'x-api-key': '[redacted]',
      'user-agent': 'redaction-test/1',
    });
    const raw = lines.find((l) => l.includes('"redact-headers"'))!;
    for (const v of [token, ...values]) expect(raw).not.toContain(v);
  });

  it('masks the values of query parameters named like a secret, in any case, and keeps the others', async () => {
    const names = ['api_key', 'APIKEY', 'Token', 'access_token', 'client_secret', 'Secret', 'password', 'refresh_token', 'token[]'];
    const query = names.map((n, i) => `${encodeURIComponent(n)}=QuerySecret${i}value0123`).join('&');
    for (const [i] of names.entries()) noteSecret(`QuerySecret${i}value0123`);
    await call(srv.baseUrl, 'GET', `/v2/chambers?per_page=1&${query}&name=kept`, { token, headers: { 'x-request-id': 'redact-query' } });
    const url = new URL(ofRequest('redact-query')[0]!.req!.url, 'http://x');
    for (const n of names) expect(url.searchParams.get(n), n).toBe('[redacted]');
    expect(url.searchParams.get('per_page')).toBe('1');
    expect(url.searchParams.get('name')).toBe('kept');
    expect(lines.find((l) => l.includes('"redact-query"'))).not.toMatch(/QuerySecret/);
  });
});

describe('--trust-proxy: the client address of log lines and audit records', () => {
  const chamber = () => ({ name: `Proxy ${Math.random().toString(36).slice(2)}`, type: 'hq', address: { street: 'Meir 1', city: 'Antwerp', country: 'BE' } });

  /** A write through `s` with X-Forwarded-For, and the address its log line and its audit record name. */
  async function writeVia(s: TestServer, log: () => LogEntry[], id: string, forwardedFor: string) {
    const t = await getToken(s.baseUrl);
    const r = await call(s.baseUrl, 'POST', '/v2/chambers', { token: t, body: chamber(), headers: { 'x-request-id': id, 'x-forwarded-for': forwardedFor } });
    expect(r.status).toBe(201);
    const line = log().find((e) => e.reqId === id && e.msg === 'request completed')!;
    const record = (await s.rows('audit')).find((row) => row.request_id === id)!;
    return { logged: line.req!.remoteAddress, audited: record.address };
  }

  it("by default, the peer's address whatever X-Forwarded-For says", async () => {
    expect(await writeVia(srv, entries, 'xff-untrusted', '203.0.113.9')).toEqual({ logged: '127.0.0.1', audited: '127.0.0.1' });
  });

  it("with the proxy's address trusted, the address it forwards for, in the log line and the audit record", async () => {
    const own: string[] = [];
    const trusted = await startTestServer({ seed: 'none', trustProxy: parseTrustProxy('127.0.0.1, 10.0.0.0/8'), rawLog: (l) => own.push(l) });
    try {
      const log = () => own.map((l) => JSON.parse(l) as LogEntry);
      expect(await writeVia(trusted, log, 'xff-trusted', '203.0.113.9')).toEqual({ logged: '203.0.113.9', audited: '203.0.113.9' });
      // a chain: the nearest address that is not a trusted proxy
      expect(await writeVia(trusted, log, 'xff-chain', '198.51.100.1, 203.0.113.9, 10.1.2.3')).toEqual({ logged: '203.0.113.9', audited: '203.0.113.9' });
    } finally {
      await trusted.close();
    }
  });

  it.each([
    ['true', '198.51.100.1'],
    ['1', '10.1.2.3'],
    ['2', '203.0.113.9'],
    ['0', '127.0.0.1'],
    ['false', '127.0.0.1'],
    ['10.0.0.0/8', '127.0.0.1'], // the peer (127.0.0.1) is not a trusted proxy: its header is ignored
    ['loopback,10.0.0.0/8', '203.0.113.9'],
  ])('--trust-proxy %s logs the client as %s', async (value, expected) => {
    const own: string[] = [];
    const s = await startTestServer({ dbPath: ':memory:', seed: 'none', trustProxy: parseTrustProxy(value), rawLog: (l) => own.push(l) });
    try {
      await call(s.baseUrl, 'GET', '/nowhere', { headers: { 'x-request-id': 'xff-variant', 'x-forwarded-for': '198.51.100.1, 203.0.113.9, 10.1.2.3' } });
      const line = own.map((l) => JSON.parse(l) as LogEntry).find((e) => e.reqId === 'xff-variant')!;
      expect(line.req!.remoteAddress).toBe(expected);
    } finally {
      await s.close();
    }
  });

  it('parses true, false, a hop count, and addresses and CIDR ranges; anything else is an error of one line', () => {
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('FALSE')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    const hops = parseTrustProxy('2') as (address: string, hop: number) => boolean;
    expect([0, 1, 2].map((hop) => hops('192.0.2.1', hop))).toEqual([true, true, false]);
    expect(parseTrustProxy(' 10.0.0.0/8 , 192.168.1.7,::1,fd00::/8 ')).toEqual(['10.0.0.0/8', '192.168.1.7', '::1', 'fd00::/8']);
    for (const bad of ['', 'yes', '-1', '1.5', '10.0.0.0/33', '10.0.0.0/0', '::/129', '10.0.0.0/x', '10.0.0', 'proxy.internal', '10.0.0.1,,10.0.0.2', '10.0.0.1/8/8']) {
      expect(() => parseTrustProxy(bad), bad).toThrow(/^[^\n]+$/);
    }
  });

  it('serve --trust-proxy with a bad value is a usage error (exit 2) naming the value, before anything starts', async () => {
    const r = await runInProcess(['serve', '--db', ':memory:', '--port', '0', '--trust-proxy', '10.0.0.0/33'], '/nonexistent/chamberctl-trust-proxy-test');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: --trust-proxy must be true, false, a number of hops, or addresses and CIDR ranges separated by commas: "10.0.0.0/33": the prefix length must be a number from 1 to 32\n');
    expect(r.stdout).toBe('');
  });
});

describe('a refused request names who and why', () => {
  const tokenRequest = (s: TestServer, clientId: string, clientSecret: string, id: string) =>
    call(s.baseUrl, 'POST', '/v2/auth/token', { body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }, headers: { 'x-request-id': id } });
  /** The one line of request `id` in `log`, and the raw text of every line of it. */
  const lineOf = (log: string[], id: string) => {
    const own = log.filter((l) => (JSON.parse(l) as LogEntry).reqId === id);
    expect(own, id).toHaveLength(1);
    return { entry: JSON.parse(own[0]!) as LogEntry, raw: own[0]! };
  };

  it('at the token endpoint: the client id and unknown_client, wrong_secret or revoked_client, as a warning, never the secret', async () => {
    const secret = 'RevokedSecret0123456789abcdefgh';
    noteSecret(secret);
    await srv.server.store.addClient('logs-revoked', await hashSecret(secret), 'read', new Date());
    await srv.server.store.revokeClient('logs-revoked', new Date());
    const wrong = 'WrongSecret0123456789abcdefghij';
    noteSecret(wrong);
    for (const [clientId, clientSecret, id, reason] of [
      ['nobody-here', wrong, 'refused-unknown', 'unknown_client'],
      [srv.clientId, wrong, 'refused-wrong', 'wrong_secret'],
      ['logs-revoked', secret, 'refused-revoked', 'revoked_client'],
    ] as const) {
      expect((await tokenRequest(srv, clientId, clientSecret, id)).status).toBe(401);
      const { entry, raw } = lineOf(lines, id);
      expect(entry).toMatchObject({ level: 40, msg: 'request completed', client_id: clientId, reason, res: { statusCode: 401 } });
      expect(raw).not.toContain(clientSecret);
    }
  });

  it('an id and a secret sent the wrong way round: the id that is a secret is not logged', async () => {
    // sent raw: call() would note the "secret" sent (the client id) as one no log line may hold
    const body = JSON.stringify({ grant_type: 'client_credentials', client_id: srv.clientSecret, client_secret: srv.clientId });
    const r = await call(srv.baseUrl, 'POST', '/v2/auth/token', { raw: body, headers: { 'content-type': 'application/json', 'x-request-id': 'refused-swapped' } });
    expect(r.status).toBe(401);
    const { entry, raw } = lineOf(lines, 'refused-swapped');
    expect(entry).toMatchObject({ level: 40, reason: 'unknown_client' });
    expect(entry).not.toHaveProperty('client_id');
    expect(raw).not.toContain(srv.clientSecret);
  });

  it('an HTTP Basic header that does not decode: malformed_credentials, no client', async () => {
    const r = await call(srv.baseUrl, 'POST', '/v2/auth/token', { raw: 'grant_type=client_credentials', headers: { authorization: 'Basic Zm9vYmFy', 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': 'refused-basic' } });
    expect(r.status).toBe(401);
    const { entry } = lineOf(lines, 'refused-basic');
    expect(entry).toMatchObject({ level: 40, reason: 'malformed_credentials' });
    expect(entry).not.toHaveProperty('client_id');
  });

  it('on a bearer token: missing, malformed, unknown (no client), issued by v1 (its client); a read token on a write: insufficient_scope', async () => {
    const readSecret = 'ReadOnlySecret0123456789abcdefg';
    noteSecret(readSecret);
    await srv.server.store.addClient('logs-reader', await hashSecret(readSecret), 'read', new Date());
    const readToken = (await tokenRequest(srv, 'logs-reader', readSecret, 'reader-token')).body.access_token as string;
    const v1 = await getToken(srv.baseUrl, 'v1');
    const unknown = 'UnknownToken0123456789abcdefghijklmn';
    noteSecret(unknown);
    const cases: [string, Record<string, string>, number, string, string | undefined][] = [
      ['bearer-missing', {}, 401, 'missing_token', undefined],
      ['bearer-malformed', { authorization: 'Bearer not a token' }, 401, 'malformed_token', undefined],
      ['bearer-unknown', { authorization: `Bearer ${unknown}` }, 401, 'unknown_token', undefined],
      ['bearer-v1', { authorization: `Bearer ${v1}` }, 401, 'wrong_version', srv.clientId],
    ];
    for (const [id, headers, status, reason, clientId] of cases) {
      expect((await call(srv.baseUrl, 'GET', '/v2/chambers?per_page=1', { headers: { ...headers, 'x-request-id': id } })).status, id).toBe(status);
      const { entry } = lineOf(lines, id);
      expect(entry, id).toMatchObject({ level: 40, reason, res: { statusCode: status } });
      expect(entry.client_id, id).toBe(clientId);
    }
    const write = await call(srv.baseUrl, 'POST', '/v2/chambers', { token: readToken, body: {}, headers: { 'x-request-id': 'bearer-scope' } });
    expect(write.status).toBe(403);
    expect(lineOf(lines, 'bearer-scope').entry).toMatchObject({ level: 40, reason: 'insufficient_scope', client_id: 'logs-reader', res: { statusCode: 403 } });
    // an accepted request names its client too, at info
    await call(srv.baseUrl, 'GET', '/v2/chambers?per_page=1', { token: readToken, headers: { 'x-request-id': 'bearer-ok' } });
    const ok = lineOf(lines, 'bearer-ok').entry;
    expect(ok).toMatchObject({ level: 30, client_id: 'logs-reader', res: { statusCode: 200 } });
    expect(ok).not.toHaveProperty('reason');
  });

  it('an expired token: expired_token and its client; a flood of wrong secrets: rate_limited, naming a known client only', async () => {
    let skewMs = 0;
    const own: string[] = [];
    const s = await startTestServer({ dbPath: ':memory:', seed: 'none', now: () => new Date(Date.now() + skewMs), rawLog: (l) => own.push(l) });
    try {
      const t = await getToken(s.baseUrl);
      skewMs = 2 * 3600_000;
      expect((await call(s.baseUrl, 'GET', '/v2/chambers', { token: t, headers: { 'x-request-id': 'bearer-expired' } })).status).toBe(401);
      expect(lineOf(own, 'bearer-expired').entry).toMatchObject({ level: 40, reason: 'expired_token', client_id: s.clientId });
      const wrong = 'FloodSecret0123456789abcdefghijk';
      noteSecret(wrong);
      const answers = await Promise.all(Array.from({ length: FAILURE_LIMIT }, (_, i) => tokenRequest(s, s.clientId, wrong, `flood-${i}`)));
      // each check went ahead: 401, or on a machine so loaded that its scrypt outlasts the 4 s
      // answer deadline, the deadline's 503 (test/server/token-guard.test.ts)
      expect(answers.filter((r) => r.status !== 401 && r.status !== 503)).toEqual([]);
      expect((await tokenRequest(s, s.clientId, wrong, 'flood-known')).status).toBe(429);
      expect((await tokenRequest(s, 'made-up-id', wrong, 'flood-unknown')).status).toBe(429);
      expect(lineOf(own, 'flood-known').entry).toMatchObject({ level: 40, reason: 'rate_limited', client_id: s.clientId, res: { statusCode: 429 } });
      const unknown = lineOf(own, 'flood-unknown').entry;
      expect(unknown).toMatchObject({ level: 40, reason: 'rate_limited', res: { statusCode: 429 } });
      expect(unknown).not.toHaveProperty('client_id');
    } finally {
      await s.close();
    }
  });

  it('with --quiet, refused requests are still logged, accepted ones are not', async () => {
    const own: string[] = [];
    const s = await startTestServer({ dbPath: ':memory:', seed: 'none', quiet: true, rawLog: (l) => own.push(l) });
    try {
      const t = await getToken(s.baseUrl);
      await call(s.baseUrl, 'GET', '/v2/chambers', { token: t, headers: { 'x-request-id': 'quiet-ok' } });
      await call(s.baseUrl, 'GET', '/v2/chambers', { headers: { 'x-request-id': 'quiet-refused' } });
      const wrong = 'QuietWrongSecret0123456789abcde';
      noteSecret(wrong);
      await tokenRequest(s, s.clientId, wrong, 'quiet-wrong');
      const requestLines = own.map((l) => JSON.parse(l) as LogEntry).filter((e) => e.req);
      expect(requestLines.map((e) => [e.reqId, e.level, e.reason])).toEqual([
        ['quiet-refused', 40, 'missing_token'],
        ['quiet-wrong', 40, 'wrong_secret'],
      ]);
    } finally {
      await s.close();
    }
  });

  it('reads as text on a terminal: the reason and the client after the status', async () => {
    const text: string[] = [];
    const server = await startServer({
      host: '127.0.0.1',
      port: 0,
      dbPath: ':memory:',
      seed: 'none',
      clientId: 'text-client',
      clientSecret: 'TextClientSecret0123456789abcd',
      logging: { destination: { write: (l: string) => text.push(l) }, format: 'text', requests: true, colour: false },
    });
    noteSecret('TextClientSecret0123456789abcd');
    try {
      const wrong = 'TextWrongSecret0123456789abcdef';
      noteSecret(wrong);
      await call(server.baseUrl, 'POST', '/v2/auth/token', { body: { grant_type: 'client_credentials', client_id: 'text-client', client_secret: wrong }, headers: { 'x-request-id': 'tty-refused' } });
      const written = text.join('').split('\n').filter((l) => l.includes('tty-refused'));
      expect(written).toEqual([expect.stringMatching(/^\[\d\d:\d\d:\d\d\] WARN: POST \/v2\/auth\/token 401 \d+\.\dms from 127\.0\.0\.1 \(wrong_secret, client text-client\) \[tty-refused\]$/)]);
    } finally {
      await server.close();
    }
  });
});

describe('health probes', () => {
  it('answering 200, /healthz and /livez write no line at the default level; other paths do', async () => {
    for (const [method, path] of [['GET', '/healthz'], ['HEAD', '/healthz'], ['GET', '/livez'], ['HEAD', '/livez']] as const) {
      const id = `probe-${method}-${path.slice(1)}`;
      expect((await call(srv.baseUrl, method, path, { headers: { 'x-request-id': id } })).status).toBe(200);
      expect(ofRequest(id), id).toEqual([]);
    }
    await call(srv.baseUrl, 'GET', '/livez/nowhere', { headers: { 'x-request-id': 'probe-404' } });
    expect(ofRequest('probe-404')).toMatchObject([{ level: 30, res: { statusCode: 404 } }]);
  });

  it('their lines are debug lines, written at that level', async () => {
    const own: string[] = [];
    const s = await startTestServer({ dbPath: ':memory:', seed: 'none', logLevel: 'debug', rawLog: (l) => own.push(l) });
    try {
      await call(s.baseUrl, 'GET', '/healthz', { headers: { 'x-request-id': 'probe-debug-1' } });
      await call(s.baseUrl, 'GET', '/livez', { headers: { 'x-request-id': 'probe-debug-2' } });
      const probes = own.map((l) => JSON.parse(l) as LogEntry).filter((e) => e.reqId?.startsWith('probe-debug'));
      expect(probes.map((e) => [e.level, e.req!.url, e.res!.statusCode])).toEqual([
        [20, '/healthz', 200],
        [20, '/livez', 200],
      ]);
    } finally {
      await s.close();
    }
  });

  it("a change of /healthz's state is logged once: a warning when it turns unavailable, info when it is ok again", async () => {
    const own: string[] = [];
    const s = await startTestServer({ dbPath: ':memory:', seed: 'none', rawLog: (l) => own.push(l) });
    const store = s.server.store as unknown as Record<string, unknown>;
    try {
      const probe = async (n: number) => (await call(s.baseUrl, 'GET', '/healthz', { headers: { 'x-request-id': `health-${n}` } })).status;
      expect(await probe(1)).toBe(200);
      store.ping = () => Promise.reject(new StorageUnavailable('connection refused'));
      expect([await probe(2), await probe(3), await probe(4)]).toEqual([503, 503, 503]);
      delete store.ping;
      expect([await probe(5), await probe(6)]).toEqual([200, 200]);
      const logged = own.map((l) => JSON.parse(l) as LogEntry & { health?: string }).filter((e) => e.reqId?.startsWith('health-'));
      expect(logged.map((e) => [e.reqId, e.level, e.msg.replace(/after [\d.]+ s/, 'after N s')])).toEqual([
        ['health-2', 40, 'readiness (/healthz) is unavailable: the database does not answer within 2 s'],
        ['health-2', 30, 'request completed'],
        ['health-3', 30, 'request completed'],
        ['health-4', 30, 'request completed'],
        ['health-5', 30, 'readiness (/healthz) is ok again after N s: the database answers'],
      ]);
      expect(logged.filter((e) => e.msg === 'request completed').map((e) => e.res!.statusCode)).toEqual([503, 503, 503]);
    } finally {
      delete store.ping;
      await s.close();
    }
  });
});

describe('an outage: one warning a second, with the number of 503s it stands for', () => {
  it('the first 503 is a warning under its request id; those within the next second are one warning with their count and reasons', async () => {
    const own: string[] = [];
    const s = await startTestServer({ dbPath: ':memory:', seed: 'none', rawLog: (l) => own.push(l) });
    const store = s.server.store as unknown as Record<string, unknown>;
    type Warning = LogEntry & { requests?: number; reasons?: Record<string, number> };
    const warnings = () => own.map((l) => JSON.parse(l) as Warning).filter((e) => e.level === 40 && e.requests !== undefined);
    try {
      const t = await getToken(s.baseUrl);
      let n = 0;
      // 'no answer in time' for two requests of three, 'connection refused' for the third
      store.listChambers = () => Promise.reject(new StorageUnavailable(n++ % 3 === 2 ? 'connection refused' : 'no answer in time'));
      const list = (id: string) => call(s.baseUrl, 'GET', '/v2/chambers', { token: t, headers: { 'x-request-id': id } });
      expect((await list('outage-0')).status).toBe(503);
      expect(warnings()).toMatchObject([{ reqId: 'outage-0', reason: 'no answer in time', requests: 1, msg: 'answered 503: the database is unavailable (no answer in time)' }]);

      const answers = await Promise.all(Array.from({ length: 17 }, (_, i) => list(`outage-${i + 1}`)));
      expect(answers.map((r) => r.status)).toEqual(answers.map(() => 503));
      expect(warnings()).toHaveLength(1); // nothing more within the second
      await vi.waitFor(() => expect(warnings()).toHaveLength(2), { timeout: 1500, interval: 20 });
      const [, second] = warnings();
      expect(second).toMatchObject({
        reason: 'no answer in time',
        requests: 17,
        reasons: { 'no answer in time': 11, 'connection refused': 6 },
        msg: 'the database is unavailable (no answer in time): 17 requests answered 503 in the last second',
      });
      expect(second).not.toHaveProperty('reqId');
      // and every request still has its own line, with its status and reason
      const requestLines = own.map((l) => JSON.parse(l) as LogEntry).filter((e) => e.reqId?.startsWith('outage-') && e.msg === 'request completed');
      expect(requestLines).toHaveLength(18);
      expect(requestLines.every((e) => e.level === 30 && e.res!.statusCode === 503 && e.reason !== undefined)).toBe(true);

      // a second without a 503: the next one is a warning of its own at once
      await new Promise((r) => setTimeout(r, 1100));
      expect(warnings()).toHaveLength(2);
      await list('outage-later');
      expect(warnings()).toHaveLength(3);
      expect(warnings()[2]).toMatchObject({ reqId: 'outage-later', requests: 1 });
      // counted when the server stops before the second is over: told then
      await list('outage-last');
      await s.close();
      expect(warnings()).toHaveLength(4);
      expect(warnings()[3]).toMatchObject({ reason: 'no answer in time', requests: 1, msg: 'the database is unavailable (no answer in time): 1 request answered 503 in the last second' });
      expect(warnings().reduce((sum, w) => sum + w.requests!, 0)).toBe(20);
    } finally {
      delete store.listChambers;
      await s.close();
    }
  });
});
