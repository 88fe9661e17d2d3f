// What node's HTTP layer would answer by itself, with an empty body, before Fastify sees the
// request: an unsupported Expect, a missing Host, oversized headers, unparseable requests.
// Each gets a JSON body here. And every method node accepts, on a path that does not serve
// it, is a 405 with Allow (docs/server-behaviour.md#hostile-input).
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getToken, startTestServer, type TestServer } from '../helpers/server.js';

let srv: TestServer;
let port: number;
let v2: string;
beforeAll(async () => {
  srv = await startTestServer({ seed: 'none' });
  port = Number(new URL(srv.baseUrl).port);
  v2 = await getToken(srv.baseUrl, 'v2');
});
afterAll(() => srv.close());

/** Sends `raw` bytes and returns the whole answer, parsed into status, headers and body. */
function rawRequest(raw: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      data += d;
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = /content-length: *(\d+)/i.exec(data.slice(0, end));
      if (length && Buffer.byteLength(data.slice(end + 4)) >= Number(length[1])) socket.end();
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const end = data.indexOf('\r\n\r\n');
      const head = data.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(head.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(head[0]!.split(' ')[1]), headers, body: data.slice(end + 4) });
    });
    socket.write(raw);
  });
}

function expectJsonError(r: { status: number; headers: Record<string, string>; body: string }, status: number) {
  expect(r.status).toBe(status);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(r.body) as { error: string };
  expect(typeof body.error).toBe('string');
  expect(body.error.length).toBeGreaterThan(0);
  return body;
}

describe("answers node's HTTP layer would give without a body", () => {
  it.each(['foo', ''])('Expect: %j is a 417 in JSON', async (expectation) => {
    const r = await rawRequest(`GET /v2/chambers HTTP/1.1\r\nHost: x\r\nExpect: ${expectation}\r\n\r\n`);
    expectJsonError(r, 417);
  });

  it('an HTTP/1.1 request without Host is a 400 in JSON; HTTP/1.0 may omit it', async () => {
    expectJsonError(await rawRequest('GET /healthz HTTP/1.1\r\n\r\n'), 400);
    const old = await rawRequest('GET /healthz HTTP/1.0\r\n\r\n');
    expect(old.status).toBe(200);
  });

  it('headers over 16 KiB are a 431 in JSON', async () => {
    const r = await rawRequest(`GET /v2/chambers HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expectJsonError(r, 431);
  });

  it('a request that is not HTTP is a 400 in JSON', async () => {
    expectJsonError(await rawRequest('HELLO THERE\r\n\r\n'), 400);
  });
});

describe('405 for every method a known path does not serve', () => {
  it.each(['TRACE', 'PROPFIND', 'PURGE', 'LINK', 'MKCOL', 'SEARCH', 'COPY', 'LOCK', 'REPORT'])('%s on real paths → 405 with Allow', async (method) => {
    for (const [path, allow] of [
      ['/v2/chambers', 'GET, HEAD, POST'],
      ['/v1/chambers/ch_x', 'GET, HEAD'],
      ['/v2/auth/token', 'POST'],
      ['/healthz', 'GET, HEAD'],
    ] as const) {
      // raw, since fetch() refuses to send some of these methods (TRACE)
      const r = await rawRequest(`${method} ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${v2}\r\nConnection: close\r\n\r\n`);
      expect(r.status, `${method} ${path}`).toBe(405);
      expect(r.headers.allow).toBe(allow);
      expect(expectJsonError(r, 405).error).toMatch(new RegExp(`method ${method} is not allowed`));
    }
  });

  it('an unknown path stays a 404 whatever the method', async () => {
    expectJsonError(await rawRequest('PROPFIND /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), 404);
  });
});
