import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindAddress } from '../../src/server/bound-address.js';
import { LINGER_MAX_BYTES, LINGER_MAX_MS } from '../../src/server/lingering-close.js';
import { parseAnswer, slowUpload } from '../helpers/raw-http.js';
import { getToken, startTestServer, type TestServer } from '../helpers/server.js';

// An answer decided before the body is read (docs/server-behaviour.md#limits) reaches a
// client that writes its whole body, slowly, before it reads anything: the server reads and
// discards the rest of the body within bounds instead of closing under the client's feet
// (which the client saw as EPIPE or ECONNRESET, never the answer).

let srv: TestServer;
let skewMs = 0;
let expired: string;
let v2: string;
beforeAll(async () => {
  srv = await startTestServer({ seed: 'none', now: () => new Date(Date.now() + skewMs) });
  expired = await getToken(srv.baseUrl, 'v2');
  skewMs = 2 * 3600_000; // two hours on: the first token has expired
  v2 = await getToken(srv.baseUrl, 'v2');
});
afterAll(() => srv.close());

const BODY = 2 * 1024 * 1024; // over the 1 MiB limit, under the 4 MiB read after an answer
const head = (line: string, headers: string, length = BODY) => `${line} HTTP/1.1\r\nHost: x\r\nContent-Length: ${length}\r\n${headers}\r\n`;

describe('a client that writes 2 MB slowly, then reads', () => {
  it.each([
    ['an expired token', 'POST /v2/chambers', 'content-type: application/json\r\nauthorization: Bearer EXPIRED\r\n', 401, 'invalid_token'],
    ['a path no route serves', 'POST /v2/nothing', 'content-type: application/json\r\n', 404, 'no such path: POST /v2/nothing'],
    ['an unsupported media type', 'POST /v2/chambers', 'content-type: text/plain\r\nauthorization: Bearer TOKEN\r\n', 415, 'the request body must be JSON (Content-Type: application/json)'],
    ['a body over 1 MiB', 'POST /v2/chambers', 'content-type: application/json\r\nauthorization: Bearer TOKEN\r\n', 413, 'the request body is larger than 1 MiB'],
    ['a body over 4 KiB to the token endpoint', 'POST /v2/auth/token', 'content-type: application/json\r\n', 413, 'invalid_request'],
  ])('reads the whole answer to %s', async (_what, line, headers, status, error) => {
    const r = await slowUpload(srv.baseUrl, head(line, headers.replace('EXPIRED', expired).replace('TOKEN', v2)), {
      bodyBytes: BODY,
      chunkBytes: 64 * 1024,
      gapMs: 5,
      fill: 0x5b, // '[': deep, if anything parsed it
    });
    expect(r.error).toBeUndefined();
    expect(r.written).toBe(BODY);
    expect(r.status).toBe(status);
    expect(JSON.parse(r.body).error).toBe(error);
  });

  it('keeps the connection for the next request once the body has ended', async () => {
    const { port } = new URL(srv.baseUrl);
    const socket = connect(Number(port), '127.0.0.1');
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (data += d));
    const twoAnswers = new Promise<void>((resolve) => socket.on('data', () => data.split('HTTP/1.1 ').length > 2 && data.endsWith('}') && resolve()));
    socket.write(head('POST /v2/nothing', 'content-type: application/json\r\n', 100_000));
    socket.write(Buffer.alloc(100_000, 0x20));
    socket.write(`GET /livez HTTP/1.1\r\nHost: x\r\n\r\n`);
    await twoAnswers;
    socket.destroy();
    const [first, second] = data.split(/(?=HTTP\/1\.1 )/);
    expect(parseAnswer(first!).status).toBe(404);
    expect(parseAnswer(second!)).toMatchObject({ status: 200, body: '{"status":"ok"}' });
  });
});

describe('the bounds of what is read after an answer', () => {
  it(`reads at most ${LINGER_MAX_BYTES / 1024 / 1024} MiB, then closes`, async () => {
    const bodyBytes = 64 * 1024 * 1024;
    const r = await slowUpload(srv.baseUrl, head('POST /v2/nothing', 'content-type: application/json\r\n', bodyBytes), { bodyBytes, chunkBytes: 256 * 1024 });
    expect(r.error).toMatch(/EPIPE|ECONNRESET/);
    expect(r.written).toBeGreaterThan(LINGER_MAX_BYTES);
    expect(r.written).toBeLessThan(bodyBytes);
  });

  it(`waits at most ${LINGER_MAX_MS / 1000} s for the rest, then closes`, async () => {
    const { port } = new URL(srv.baseUrl);
    const socket = connect(Number(port), '127.0.0.1');
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (data += d));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(head('POST /v2/nothing', 'content-type: application/json\r\n', 1_000_000));
    const sent = performance.now();
    await closed; // the body promised never comes
    expect(performance.now() - sent).toBeGreaterThanOrEqual(LINGER_MAX_MS - 50);
    expect(parseAnswer(data).status).toBe(404); // answered at once all the same
  }, LINGER_MAX_MS + 10_000);
});

describe('while the server starts', () => {
  it('its 503 reaches a client that writes 2 MB first; past the bounds the connection closes', async () => {
    const bound = await bindAddress('127.0.0.1', 0);
    try {
      const baseUrl = `http://127.0.0.1:${bound.port}`;
      const r = await slowUpload(baseUrl, head('POST /v2/chambers', 'content-type: application/json\r\n'), { bodyBytes: BODY, chunkBytes: 64 * 1024, gapMs: 5 });
      expect(r.error).toBeUndefined();
      expect(r.status).toBe(503);
      expect(JSON.parse(r.body).error).toBe('starting');
      const bodyBytes = 64 * 1024 * 1024;
      const big = await slowUpload(baseUrl, head('POST /v2/chambers', 'content-type: application/json\r\n', bodyBytes), { bodyBytes, chunkBytes: 256 * 1024 });
      expect(big.written).toBeLessThan(bodyBytes);
    } finally {
      await bound.close();
    }
  });
});
