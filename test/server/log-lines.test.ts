// What the operator reads in serve's log (issue 33, item 5; decisions.md, "Start-up and
// configuration"): who was refused and why, one outage warning a second rather than one a
// request, health probes out of the way, credentials redacted wherever a client puts them,
// and the client's address as --trust-proxy decides it, in the log and in the audit trail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
