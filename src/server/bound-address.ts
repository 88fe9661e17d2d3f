import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { STARTING } from '../contract/errors.js';
import { StartError } from '../storage/start-error.js';
import { discardRestOf } from './lingering-close.js';
import { requestIdOf } from './logging.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** The body of every answer but `GET /livez` while the server starts (the contract's StartingBody). */
const STARTING_BODY = JSON.stringify(STARTING);

/**
 * The server's address, bound before anything else happens: a start that cannot listen has
 * created, seeded and registered nothing. From that moment every connection is answered:
 * while the database is opened, migrated and seeded, `GET /livez` is 200 and everything else
 * is a 503 `starting` with Retry-After; then `serve(handler)` hands every request (those on
 * connections already open included) to the app. This one node server is the app's own
 * (Fastify's serverFactory), so the port is never released and taken again: no connection
 * is ever held unanswered or refused in between.
 */
export interface BoundAddress {
  server: Server;
  port: number;
  /** From now on, requests go to `handler` (the app, once ready). */
  serve(handler: Handler): void;
  /** Stops listening and ends every connection (a start that failed or was stopped). */
  close(): Promise<void>;
}

/** How long a connection may take to send a request's headers, then 408 (serve --header-timeout). */
export const HEADER_TIMEOUT_MS = 10_000;
/** Connections open at once, past which new ones are closed unanswered (serve --max-connections). */
export const MAX_CONNECTIONS = 1000;

export interface ConnectionLimits {
  /**
   * From a connection's opening, or the first byte of a later request on it, to the request's
   * last header; default HEADER_TIMEOUT_MS. (Between requests, Fastify's 72 s keep-alive holds.)
   */
  headerTimeoutMs?: number;
  /** Default MAX_CONNECTIONS. */
  maxConnections?: number;
}

export async function bindAddress(host: string, port: number, limits: ConnectionLimits = {}): Promise<BoundAddress> {
  let current: Handler = answerStarting;
  const headersTimeout = limits.headerTimeoutMs ?? HEADER_TIMEOUT_MS;
  const server = createServer(
    {
      // the app answers a request without Host in JSON itself (app.ts)
      requireHostHeader: false,
      // docs/server-behaviour.md#limits: node's own 60 s, checked every 30 s, held a silent
      // connection about 80 s; the 408 is answered in JSON (error-handler.ts)
      headersTimeout,
      connectionsCheckingInterval: Math.min(1000, headersTimeout),
    },
    (req, res) => current(req, res),
  );
  server.maxConnections = limits.maxConnections ?? MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(listenError(err, host, port)));
    server.listen({ host, port, exclusive: true }, () => resolve());
  });
  const address = server.address();
  return {
    server,
    port: typeof address === 'object' && address ? address.port : port,
    serve: (handler) => (current = handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Logs connections closed at the cap (node's 'drop'): one warning a second at most, with
 * how many, so that a flood of them is one line a second.
 */
export function warnOfDroppedConnections(server: Server, log: { warn(msg: string): void }): void {
  let dropped = 0;
  let timer: NodeJS.Timeout | undefined;
  const warn = () => {
    clearTimeout(timer);
    if (dropped === 0) return;
    log.warn(`${dropped} new connection${dropped === 1 ? '' : 's'} closed unanswered: ${server.maxConnections} were open, the most --max-connections allows`);
    dropped = 0;
  };
  server.on('drop', () => {
    if (dropped++ === 0) timer = setTimeout(warn, 1000).unref();
  });
  server.on('close', warn); // what the last second counted, before the process ends
}

function answerStarting(req: IncomingMessage, res: ServerResponse): void {
  discardRestOf(req); // a body is not read while starting, but the answer must reach its client
  const path = (req.url ?? '').split('?')[0];
  const live = path === '/livez' && (req.method === 'GET' || req.method === 'HEAD');
  const body = live ? JSON.stringify({ status: 'ok' }) : STARTING_BODY;
  res.writeHead(live ? 200 : 503, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-request-id': requestIdOf(req),
    ...(!live && { 'retry-after': '1' }),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** A listen error as the one line `serve` prints. */
function listenError(err: unknown, host: string, port: number): Error {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new StartError(`port ${port} on ${host} is already in use (try --port 0 for a free one)`);
  if (code === 'EACCES') return new StartError(`not allowed to listen on ${host}:${port}`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new StartError(`cannot listen on ${host}: no such local address`);
  return err as Error;
}
