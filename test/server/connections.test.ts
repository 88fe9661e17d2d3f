import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADER_TIMEOUT_MS, MAX_CONNECTIONS } from '../../src/server/bound-address.js';
import { parseAnswer } from '../helpers/raw-http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// docs/server-behaviour.md#limits: a connection that does not send its headers in time is
// answered 408 and closed; past the cap, new connections are closed unanswered.

/** A socket to `srv` and everything it receives until it closes. */
function open(srv: TestServer): { socket: Socket; received: () => string; closed: Promise<number> } {
  const socket = connect(Number(new URL(srv.baseUrl).port), '127.0.0.1');
  let data = '';
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => (data += d));
  socket.on('error', () => undefined);
  const start = performance.now();
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(performance.now() - start)));
  return { socket, received: () => data, closed };
}

describe('the header timeout', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ seed: 'none', connections: { headerTimeoutMs: 1000 } });
  });
  afterAll(() => srv.close());

  it('is 10 s and the cap 1000 by default', async () => {
    const plain = await startTestServer({ seed: 'none' });
    try {
      expect(plain.server.app.server.headersTimeout).toBe(HEADER_TIMEOUT_MS);
      expect(HEADER_TIMEOUT_MS).toBe(10_000);
      expect(plain.server.app.server.maxConnections).toBe(MAX_CONNECTIONS);
      expect(MAX_CONNECTIONS).toBe(1000);
    } finally {
      await plain.close();
    }
  });

  it('answers headers that stop halfway with a JSON 408, then closes', async () => {
    const c = open(srv);
    c.socket.write('GET /livez HTTP/1.1\r\nHost: x\r\n');
    const ms = await c.closed;
    expect(ms).toBeGreaterThanOrEqual(1000 - 50);
    const answer = parseAnswer(c.received());
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toEqual({ error: 'the request took too long to arrive' });
  });

  it('closes a connection that sends nothing', async () => {
    const c = open(srv);
    const ms = await c.closed;
    expect(ms).toBeGreaterThanOrEqual(1000 - 50);
  });

  it('a request that arrives in time is served', async () => {
    const c = open(srv);
    c.socket.write('GET /livez HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await c.closed;
    expect(parseAnswer(c.received())).toMatchObject({ status: 200, body: '{"status":"ok"}' });
  });
});

describe('the connection cap', () => {
  let srv: TestServer;
  const logs: string[] = [];
  beforeAll(async () => {
    srv = await startTestServer({ seed: 'none', connections: { maxConnections: 2 }, rawLog: (l) => logs.push(l) });
  });
  afterAll(() => srv.close());

  /** A connection that has been answered once and stays open (keep-alive). */
  async function served(): Promise<ReturnType<typeof open>> {
    const c = open(srv);
    c.socket.write('GET /livez HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise<void>((resolve) => c.socket.on('data', () => c.received().endsWith('}') && resolve()));
    return c;
  }

  it('closes new connections unanswered past the cap, and serves again below it', async () => {
    const [a, b] = [await served(), await served()];
    const refused = open(srv);
    refused.socket.write('GET /livez HTTP/1.1\r\nHost: x\r\n\r\n');
    await refused.closed;
    expect(refused.received()).toBe('');
    a.socket.destroy();
    await a.closed;
    // the server counts the closed connection once it has seen it go: retry until it has
    let again = '';
    for (let i = 0; i < 50 && !again; i++) {
      const c = open(srv);
      c.socket.write('GET /livez HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      await c.closed;
      again = c.received();
    }
    expect(parseAnswer(again)).toMatchObject({ status: 200 });
    b.socket.destroy();
  });

  it('says so in the log, one line for the drops of a second', async () => {
    await expect.poll(() => logs.filter((l) => l.includes('closed unanswered')).length, { timeout: 5000 }).toBeGreaterThan(0);
    const line = JSON.parse(logs.find((l) => l.includes('closed unanswered'))!);
    expect(line.level).toBe(40);
    expect(line.msg).toMatch(/^\d+ new connections? closed unanswered: 2 were open, the most --max-connections allows$/);
  });
});
