// What the operator reads in serve's log (issue 33, item 5; decisions.md, "Start-up and
// configuration"): who was refused and why, one outage warning a second rather than one a
// request, health probes out of the way, credentials redacted wherever a client puts them,
// and the client's address as --trust-proxy decides it, in the log and in the audit trail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../../src/server/trust-proxy.js';
import { runInProcess } from '../helpers/fake-context.js';
import { call } from '../helpers/http.js';
import { noteSecret } from '../helpers/run-logs.js';
import { getToken, startTestServer, type TestServer } from '../helpers/server.js';

interface LogEntry {
  level: number;
  msg: string;
  reqId?: string;
  reason?: string;
  client_id?: string;
  req?: { method: string; url: string; remoteAddress?: string; headers: Record<string, string> };
  res?: { statusCode: number };
}

let srv: TestServer;
const lines: string[] = [];
const entries = () => lines.map((l) => JSON.parse(l) as LogEntry);
const ofRequest = (id: string) => entries().filter((e) => e.reqId === id);
let token: string;

beforeAll(async () => {
  srv = await startTestServer({ rawLog: (l) => lines.push(l) });
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
