// An HTTP proxy in front of the real test server that misbehaves on request: answers 503
// without forwarding, forwards and then drops the connection before the answer (so the
// server did apply the request), or adds latency. Everything else passes through.
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FaultProxy {
  baseUrl: string;
  /** The next `n` matching requests get `status` (with Retry-After when given) and never reach the server. */
  failNext(n: number, status?: number, retryAfter?: string): void;
  /** The next `n` matching requests reach the server; then the client's connection is cut before the answer. */
  dropAfterForward(n: number): void;
  /** Milliseconds added before forwarding each matching request. */
  delayMs: number;
  readonly stats: { matched: number; failed: number; dropped: number; forwarded: number };
  close(): Promise<void>;
}

const isMemberPost = (req: IncomingMessage) => req.method === 'POST' && /\/members$/.test(req.url ?? '');

export async function startFaultProxy(target: string, matches: (req: IncomingMessage) => boolean = isMemberPost): Promise<FaultProxy> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true });
  let failing = { n: 0, status: 503, retryAfter: undefined as string | undefined };
  let dropping = 0;
  const stats = { matched: 0, failed: 0, dropped: 0, forwarded: 0 };
  const proxy: Pick<FaultProxy, 'delayMs'> = { delayMs: 0 };

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, drop: boolean) => {
    stats.forwarded++;
    const up = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host }, agent },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          if (drop) {
            stats.dropped++;
            req.socket.destroy(); // the server applied it; the client never hears
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(Buffer.concat(chunks));
        });
      },
    );
    up.on('error', () => req.socket.destroy());
    up.end(body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (!matches(req)) return forward(req, res, body, false);
      stats.matched++;
      if (failing.n > 0) {
        failing.n--;
        stats.failed++;
        res.writeHead(failing.status, {
          'content-type': 'application/json',
          ...(failing.retryAfter ? { 'retry-after': failing.retryAfter } : {}),
        });
        res.end(JSON.stringify({ error: 'the service is unavailable, try again later' }));
        return;
      }
      const drop = dropping > 0;
      if (drop) dropping--;
      if (proxy.delayMs > 0) setTimeout(() => forward(req, res, body, drop), proxy.delayMs);
      else forward(req, res, body, drop);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(proxy, {
    baseUrl: `http://127.0.0.1:${port}`,
    stats,
    failNext(n: number, status = 503, retryAfter?: string) {
      failing = { n, status, retryAfter };
    },
    dropAfterForward(n: number) {
      dropping = n;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  });
}
