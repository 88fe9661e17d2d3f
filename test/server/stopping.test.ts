// What a stopping server answers on connections that were open before it was told to stop
// (docs/server-behaviour.md#shutdown: new requests get 503 and `Connection: close`): readiness says
// unavailable in its own shape, liveness still 200 (the process runs), the interface 503 with
// Retry-After.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../helpers/server.js';

/** Sends the request line and headers but the last CRLF; `finish()` sends it and reads the answer. */
async function halfSent(port: number, path: string): Promise<{ finish(): Promise<string> }> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
  let text = '';
  socket.setEncoding('utf8').on('data', (d: string) => (text += d));
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise((r) => setTimeout(r, 50)); // the server has read the partial request
  return {
    async finish() {
      socket.write('\r\n');
      await ended;
      return text;
    },
  };
}

describe('a stopping server', () => {
  it('answers /healthz 503 unavailable, /livez 200, the interface 503, each with Connection: close', async () => {
    const srv = await startTestServer({ seed: 'none' });
    const port = new URL(srv.baseUrl).port;
    const pending = await Promise.all(['/healthz', '/livez', '/v2/chambers'].map((p) => halfSent(Number(port), p)));
    const closed = srv.close();
    const [health, live, api] = await Promise.all(pending.map((p) => p.finish()));
    await closed;
    const status = (t: string) => Number(t.split(' ')[1]);
    const body = (t: string) => JSON.parse(t.slice(t.indexOf('\r\n\r\n') + 4));
    expect([status(health!), body(health!)]).toEqual([503, { status: 'unavailable', error: 'the server is shutting down' }]);
    expect([status(live!), body(live!)]).toEqual([200, { status: 'ok' }]);
    expect(status(api!)).toBe(503);
    expect(body(api!)).toEqual({ error: 'the server is shutting down; try again (another instance may answer)' });
    for (const t of [health!, api!]) expect(t).toMatch(/\r\nretry-after: 1\r\n/i);
    for (const t of [health!, live!, api!]) expect(t).toMatch(/\r\nconnection: close\r\n/i);
  });
});
