// A real forward proxy on loopback, as a user's corporate proxy would be: CONNECT tunnels
// (what undici's proxy agent uses) and absolute-URI requests, counted per target.
import { createServer, request, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface HttpProxy {
  url: string;
  /** `host:port` of every tunnel or request that went through, in order. */
  readonly passed: string[];
  close(): Promise<void>;
}

export async function startHttpProxy(): Promise<HttpProxy> {
  const passed: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res) => {
    const target = new URL(req.url ?? '');
    passed.push(target.host);
    const up = request({ host: target.hostname, port: target.port, method: req.method, path: `${target.pathname}${target.search}`, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    passed.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => (s === client ? upstream : client).destroy());
    }
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    passed,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
