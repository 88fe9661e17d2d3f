import { STATUS_CODES } from 'node:http';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { ApiVersion, HealthOk, HealthUnavailable } from '../contract/index.js';
import { CredentialGuard } from './auth/credential-guard.js';
import { registerTokenEndpoint } from './auth/token-endpoint.js';
import type { ServerDeps } from './deps.js';
import { registerDocs } from './docs.js';
import { sendError, sendOAuthError } from './errors.js';
import { isUnavailable } from '../storage/unavailable.js';
import { answerWithinDeadline, DeadlinePassed, REQUEST_DEADLINE_MS } from './deadline.js';
import { OutageWarnings, requestIdOf } from './logging.js';
import { registerMetrics } from './metrics.js';
import type { TrustProxy } from './trust-proxy.js';
import { authServerMetadata } from './auth/metadata.js';
import { openApiDocument } from './openapi/document.js';
import { registerChamberRoutes } from './routes/chambers.js';
import { registerEventRoutes } from './routes/events.js';
import { registerMemberRoutes } from './routes/members.js';
import { acceptHttpMethods, methodNotAllowed, registerMethodNotAllowed } from './routes/method-not-allowed.js';

export const BODY_LIMIT = 1024 * 1024; // 1 MiB, then 413 (docs/server-behaviour.md#limits)
export { REQUEST_DEADLINE_MS } from './deadline.js';
const HEALTH_TIMEOUT_MS = 2000;

/** Whether `check` resolves to true within `ms` (a database that hangs is not healthy). */
async function answersWithin(check: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([check.catch(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface AppOptions extends ServerDeps {
  /** Fastify's logger (pino) options, from logging.ts's loggerOptions; no logging when absent. */
  logger?: FastifyServerOptions['logger'];
  /** Or a logger made already (start.ts's serverLogger), which serve also uses before the app exists. */
  loggerInstance?: FastifyServerOptions['loggerInstance'];
  /** The node server to use (start.ts binds it before the app exists); else Fastify makes one. */
  serverFactory?: FastifyServerOptions['serverFactory'];
  /** GET /metrics in the Prometheus text format (serve --metrics); a 404 when false. */
  metrics?: boolean;
  /** A log line per request (else only those that failed); default true. */
  logRequests?: boolean;
  /** True once the server is stopping: new requests get 503 and `Connection: close`. */
  isClosing?: () => boolean;
  /**
   * The URL clients reach the server at (behind a load balancer, say), named by the metadata
   * documents; else the address it listens on. Never taken from the request's Host header.
   */
  publicUrl?: string;
  /**
   * Which peers' `X-Forwarded-For` names the client (serve --trust-proxy, trust-proxy.ts):
   * `request.ip`, so the address of log lines, audit records and the token endpoint's
   * failure limit. None by default: the peer's own address.
   */
  trustProxy?: TrustProxy;
}

class BadBody extends Error {
  readonly statusCode = 400;
  readonly code = 'CHAMBER_BAD_BODY';
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new BadBody('the request body is not valid JSON');
  }
}

/** The whole interface (v1 and v2) as a Fastify app, not yet listening. */
export function buildApp(opts: AppOptions): FastifyInstance {
  const app = Fastify({
    ...(opts.loggerInstance ? { loggerInstance: opts.loggerInstance } : { logger: opts.logger ?? false }),
    ...(opts.serverFactory && { serverFactory: opts.serverFactory }),
    trustProxy: opts.trustProxy ?? false,
    logController: new OneLinePerRequest(opts.logRequests ?? true),
    genReqId: requestIdOf,
    // answered by the onRequest hook below, in the JSON of every other error
    return503OnClosing: false,
    bodyLimit: BODY_LIMIT,
    // Node would answer a request without Host itself, with an empty body; the onRequest
    // hook below answers it in JSON instead.
    http: { requireHostHeader: false },
    // Requests node's parser rejects (a header over 16 KiB, malformed syntax) never reach
    // Fastify: answered here, in JSON like every other error, then the connection closes.
    clientErrorHandler: (err: NodeJS.ErrnoException, socket) => {
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      const [status, error] =
        err.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'the request headers are larger than 16 KiB']
          : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? [408, 'the request took too long to arrive']
            : [400, 'the request is not valid HTTP'];
      if (socket.writable) socket.write(rawJsonResponse(status, { error }));
      socket.destroy();
    },
    // A long id is still an id to look up (and a 404); Node's 16 KiB header limit bounds it.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 16 * 1024 },
    // Errors the router raises before any route (a malformed %-escape in the path) get the
    // same JSON body as every other error.
    frameworkErrors: (error, _request, reply) => {
      const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
      return sendError(reply, status, status === 414 ? 'the path is too long' : 'the path is not a valid URL path');
    },
  });

  acceptHttpMethods(app);
  app.decorateRequest('clientId', ''); // set by requireBearer (declared there)
  app.decorateRequest('logNote', null); // set by refuse() and for a 503 (declared in logging.ts)
  // An Expect other than 100-continue: node would answer 417 with an empty body.
  app.server.on('checkExpectation', (req, res) => {
    const body = JSON.stringify({ error: `the expectation ${JSON.stringify(req.headers.expect ?? '')} cannot be met; only 100-continue is supported` });
    res.writeHead(417, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
    res.end(body);
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (opts.isClosing?.()) {
      reply.header('connection', 'close');
      const route = request.routeOptions.url;
      if (route === '/livez') return; // the process still runs: liveness is unchanged
      reply.header('retry-after', '1');
      if (route === '/healthz') {
        // readiness in its own shape, so that a load balancer reads it as out of rotation
        const body: HealthUnavailable = { status: 'unavailable', error: 'the server is shutting down' };
        return reply.code(503).type('application/json; charset=utf-8').send(body);
      }
      return sendError(reply, 503, 'the server is shutting down; try again (another instance may answer)');
    }
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      reply.header('connection', 'close');
      return sendError(reply, 400, 'an HTTP/1.1 request must have a Host header');
    }
  });

  // Bodies: JSON under any content type (so a missing or odd Content-Type still parses),
  // and form encoding, which only the token endpoint accepts (routes check the shape).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, new URLSearchParams(body as string)),
  );
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseJson(body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });

  answerWithinDeadline(app);
  const outage = new OutageWarnings(app.log);
  app.addHook('onClose', async () => outage.close());
  if (opts.metrics) {
    const metrics = registerMetrics(app, opts.store);
    methodNotAllowed(app, '/metrics', ['GET']);
    opts = { ...opts, onTokenFailure: metrics.tokenFailed };
  }

  app.setErrorHandler((err: FastifyError, request, reply) => {
    let status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    let message: string;
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      status = 413;
      message = 'the request body is larger than 1 MiB';
    } else if (err instanceof BadBody) {
      message = err.message;
    } else if (isUnavailable(err) || err instanceof DeadlinePassed) {
      if (!request.raw.complete) {
        // the deadline passed while the client was still sending its body: nothing of ours was slow
        request.log.warn('the request body did not arrive within %d s', REQUEST_DEADLINE_MS / 1000);
        return sendError(reply.header('connection', 'close'), 408, 'the request took too long to arrive');
      }
      // The database went away (a restart, a failover) or is too slow: say so, and the client retries.
      const reason = isUnavailable(err) ? err.reason : err.message;
      request.logNote = { reason };
      outage.answered503(request.log, reason);
      reply.header('Retry-After', '1');
      return sendError(reply, 503, 'the database is unavailable; try again shortly');
    } else if (request.raw.aborted || err.code === 'ECONNRESET') {
      // the client went away mid-request (its own socket error, not ours): nobody to answer
      request.log.info('the client closed the connection before the request was complete');
      return reply;
    } else if (status < 500) {
      message = `bad request (${err.code ?? 'invalid'})`;
    } else {
      message = 'internal server error';
      request.log.error({ err }, 'answered 500: %s', err.message);
    }
    if (status < 500 && request.routeOptions.url?.endsWith('/auth/token')) {
      return sendOAuthError(reply, status, 'invalid_request', message); // never cached, OAuth-shaped
    }
    return sendError(reply, status, message);
  });

  app.setNotFoundHandler(async (request, reply) =>
    sendError(reply, 404, `no such path: ${request.method} ${request.url.split('?')[0]}`),
  );

  // For a load balancer: 200 while the database answers, 503 (and out of rotation) when not.
  const publicUrl = () => opts.publicUrl ?? listeningUrl(app);
  // one per server: the failure limit and the remembered credentials span both versions
  const guard = new CredentialGuard(() => opts.now().getTime());

  // A change of state is logged once (the probes that answer 200 are debug lines): what an
  // operator wants to read is when the instance left the rotation and when it came back.
  let unavailableSince: number | undefined; // performance.now(); undefined while ok, as at start
  app.get('/healthz', async (request, reply) => {
    if (await answersWithin(opts.store.ping(), HEALTH_TIMEOUT_MS)) {
      if (unavailableSince !== undefined) {
        const seconds = ((performance.now() - unavailableSince) / 1000).toFixed(1);
        unavailableSince = undefined;
        request.log.info({ health: 'ok' }, 'readiness (/healthz) is ok again after %s s: the database answers', seconds);
      }
      return { status: 'ok', database: 'ok' } satisfies HealthOk;
    }
    if (unavailableSince === undefined) {
      unavailableSince = performance.now();
      request.log.warn({ health: 'unavailable' }, 'readiness (/healthz) is unavailable: the database does not answer within %d s', HEALTH_TIMEOUT_MS / 1000);
    }
    const body: HealthUnavailable = { status: 'unavailable', error: 'the database does not answer' };
    return reply.code(503).type('application/json; charset=utf-8').header('Retry-After', '1').send(body);
  });
  methodNotAllowed(app, '/healthz', ['GET']);
  // Liveness, for an orchestrator that restarts a stuck process: 200 while the process runs,
  // whatever the database does (that is /healthz's readiness).
  app.get('/livez', async () => ({ status: 'ok' }));
  methodNotAllowed(app, '/livez', ['GET']);
  registerDocs(app, publicUrl);

  for (const version of ['v1', 'v2'] as const satisfies ApiVersion[]) {
    app.get(`/.well-known/oauth-authorization-server/${version}`, async (request) =>
      authServerMetadata(publicUrl(), version),
    );
    methodNotAllowed(app, `/.well-known/oauth-authorization-server/${version}`, ['GET']);
    app.register(
      async (scope) => {
        registerTokenEndpoint(scope, version, opts, guard);
        registerChamberRoutes(scope, version, opts);
        registerMemberRoutes(scope, version, opts);
        if (version === 'v2') registerEventRoutes(scope, opts);
        scope.get('/openapi.json', async () => openApiDocument(version, publicUrl(), { metrics: opts.metrics }));
        registerMethodNotAllowed(scope, version);
      },
      { prefix: `/${version}` },
    );
  }
  return app;
}

/** The health probes: their lines are debug while they answer 200. */
const PROBES = new Set(['/healthz', '/livez']);

/**
 * A line per request (README.md#logs), written when it is answered and holding the request,
 * its status and its time, instead of Fastify's two (incoming, completed); and who made it
 * (`client_id`, when known) and, for a refusal or a 503, why (`reason`). A refused request
 * (refuse(): a 401, 403 or 429 of authentication) is a warning, written even with --quiet;
 * a health probe that answers 200 a debug line.
 */
class OneLinePerRequest extends LogController {
  constructor(private readonly everyRequest: boolean) {
    super();
  }
  override incomingRequest(): void {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const note = request.logNote;
    const clientId = note?.clientId ?? (request.clientId || undefined);
    const line = {
      req: request,
      res: reply,
      responseTime: reply.elapsedTime,
      ...(clientId !== undefined && { client_id: clientId }),
      ...(note && { reason: note.reason }),
      ...(error && { err: error }),
    };
    if (error) reply.log.error(line, 'request completed');
    else if (note?.refused) reply.log.warn(line, 'request completed');
    else if (!this.everyRequest) return;
    // a load balancer's or an orchestrator's probe every few seconds: seen at debug level only
    else if (reply.statusCode === 200 && PROBES.has(request.routeOptions.url ?? '')) reply.log.debug(line, 'request completed');
    else reply.log.info(line, 'request completed');
  }
}

/** A whole HTTP/1.1 response with a JSON body, for the socket-level error paths. */
function rawJsonResponse(status: number, body: object): string {
  const json = JSON.stringify(body);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`;
}

/** The address a server listens on, as a URL (every interface: this machine's loopback). */
export function listeningUrl(app: FastifyInstance): string {
  const a = app.server.address();
  if (!a || typeof a === 'string') return 'http://127.0.0.1';
  const host = a.address === '0.0.0.0' ? '127.0.0.1' : a.address === '::' ? '::1' : a.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${a.port}`;
}
