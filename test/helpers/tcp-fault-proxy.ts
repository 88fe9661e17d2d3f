// A TCP relay between `serve` and PostgreSQL whose network the test can break, and mend, at
// run time: the faults a database's network really has, below any driver, so the server is
// tested on what it would see in production (not on what a mock says a driver throws).
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * - `pass`: bytes both ways.
 * - `blackhole`: packets dropped (a firewall, a cable, a VM frozen): nothing errors, nothing
 *   arrives, until TCP gives up minutes later; the nastiest, since only the client's own
 *   timeouts end a wait. Existing connections hold what each side sends (bytes, end, close)
 *   and deliver it in order on `pass`, so a stream is intact afterwards, as TCP's would be;
 *   new connections are accepted and held the same way, reaching the database on `pass`.
 * - `reset`: a middlebox or a crashed host answering RST: every open connection reset at
 *   once, and each new one reset as it arrives (fails fast, with ECONNRESET).
 * - `refuse`: the server process gone: open connections closed, the port no longer listening
 *   (ECONNREFUSED); `pass` listens again on the same port.
 */
export type FaultMode = 'pass' | 'blackhole' | 'reset' | 'refuse';

export interface TcpFaultProxy {
  readonly port: number;
  readonly mode: FaultMode;
  /** Connections open through the relay now (accepted, and not yet closed on both sides). */
  readonly open: number;
  /** Connections accepted since the start. */
  readonly accepted: number;
  setMode(mode: FaultMode): Promise<void>;
  /** Every connection closed and the port released. */
  close(): Promise<void>;
}

/** One client connection and its connection to the database (made on arrival, or on `pass` when it arrived held). */
interface Link {
  client: Socket;
  upstream?: Socket;
  /** While held: what each side sent, and whether it ended or closed, to deliver on `pass`. */
  held?: { up: Buffer[]; down: Buffer[]; clientEnded: boolean; clientClosed: boolean; upstreamEnded: boolean; upstreamClosed: boolean };
}

export async function startTcpFaultProxy(target: { host: string; port: number }): Promise<TcpFaultProxy> {
  const links = new Set<Link>();
  let mode: FaultMode = 'pass';
  let accepted = 0;
  let server: Server | undefined;
  let port = 0;

  const hold = (link: Link) => {
    link.held ??= { up: [], down: [], clientEnded: false, clientClosed: false, upstreamEnded: false, upstreamClosed: false };
  };

  const attachUpstream = (link: Link) => {
    const upstream = connect(target.port, target.host);
    link.upstream = upstream;
    upstream.on('error', () => undefined); // 'close' follows
    upstream.on('data', (d: Buffer) => (link.held ? link.held.down.push(d) : link.client.write(d)));
    upstream.on('end', () => (link.held ? (link.held.upstreamEnded = true) : link.client.end()));
    upstream.on('close', () => (link.held ? (link.held.upstreamClosed = true) : link.client.destroy()));
  };

  /** Delivers what a held link kept, in order, then lets it pass. */
  const release = (link: Link) => {
    const held = link.held;
    if (!held) return;
    link.held = undefined;
    if (!link.upstream) {
      // arrived while held: it reaches the database now, unless its client already gave up
      if (held.clientEnded || held.clientClosed) {
        links.delete(link);
        return void link.client.destroy();
      }
      attachUpstream(link);
    }
    const { client, upstream } = link as Required<Pick<Link, 'client' | 'upstream'>>;
    for (const d of held.up) upstream.write(d);
    for (const d of held.down) client.write(d);
    if (held.clientEnded || held.clientClosed) upstream.end();
    if (held.upstreamEnded || held.upstreamClosed) client.end();
    if (held.clientClosed) links.delete(link);
  };

  const onConnection = (client: Socket) => {
    accepted++;
    if (mode === 'reset') return void client.resetAndDestroy();
    const link: Link = { client };
    links.add(link);
    client.on('error', () => undefined); // 'close' follows
    client.on('data', (d: Buffer) => (link.held ? link.held.up.push(d) : link.upstream!.write(d)));
    client.on('end', () => (link.held ? (link.held.clientEnded = true) : link.upstream!.end()));
    client.on('close', () => {
      if (link.held) return void (link.held.clientClosed = true); // the database hears of it on `pass`
      links.delete(link);
      link.upstream?.destroy();
    });
    if (mode === 'blackhole') hold(link);
    else attachUpstream(link);
  };

  const listen = async () => {
    const s = createServer(onConnection);
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve());
    });
    server = s;
    port = (s.address() as AddressInfo).port;
  };
  const stopListening = async () => {
    const s = server;
    server = undefined;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  const closeAll = (how: 'reset' | 'close') => {
    for (const link of links) {
      for (const s of [link.client, link.upstream]) if (s && !s.destroyed) how === 'reset' ? s.resetAndDestroy() : s.destroy();
    }
    links.clear();
  };

  await listen();
  return {
    get port() {
      return port;
    },
    get mode() {
      return mode;
    },
    get open() {
      return links.size;
    },
    get accepted() {
      return accepted;
    },
    async setMode(next: FaultMode) {
      const previous = mode;
      mode = next;
      if (next === 'blackhole') for (const link of links) hold(link);
      if (next === 'reset') closeAll('reset');
      if (next === 'refuse') {
        closeAll('close');
        await stopListening();
      }
      if (next === 'pass') {
        if (previous === 'refuse') await listen();
        for (const link of links) release(link);
      }
    },
    async close() {
      mode = 'refuse';
      closeAll('close');
      await stopListening();
    },
  };
}
