import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { ApiVersion } from '../contract/index.js';
import { CredentialGuard } from './auth/credential-guard.js';
import { registerTokenEndpoint } from './auth/token-endpoint.js';
import { useBodyParsers } from './body-parsers.js';
import type { ServerDeps } from './deps.js';
import { registerDocs } from './docs.js';
import { answerClientError, answerFrameworkError, useErrorHandler } from './error-handler.js';
import { answerWithinDeadline } from './deadline.js';
import { registerHealth } from './health.js';
import { OutageWarnings, requestIdOf } from './logging.js';
import { useRequestGate } from './request-gate.js';
import { lingerAfterEarlyAnswers } from './lingering-close.js';
import { OneLinePerRequest } from './request-log.js';
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
   * True while the server drains before it stops (serve --drain): readiness (/healthz) is 503
   * so that load balancers stop sending, and requests are still served, with `Connection: close`.
   */
  isDraining?: () => boolean;
  /** Told of each readiness probe (GET /healthz) answered while serving. */
  onReadinessProbe?: () => void;
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


/** The whole interface (v1 and v2) as a Fastify app, not yet listening. */
export function buildApp(opts: AppOptions): FastifyInstance {
  const app = Fastify({
    ...(opts.loggerInstance ? { loggerInstance: opts.loggerInstance } : { logger: opts.logger ?? false }),
    ...(opts.serverFactory && { serverFactory: opts.serverFactory }),
    trustProxy: opts.trustProxy ?? false,
    logController: new OneLinePerRequest(opts.logRequests ?? true),
    genReqId: requestIdOf,
    // answered by request-gate.ts, in the JSON of every other error
    return503OnClosing: false,
    bodyLimit: BODY_LIMIT,
    // Node would answer a request without Host itself, with an empty body; request-gate.ts
    // answers it in JSON instead.
    http: { requireHostHeader: false },
    // A long id is still an id to look up (and a 404); Node's 16 KiB header limit bounds it.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 16 * 1024 },
    // what node's parser and the router reject, answered in JSON too (error-handler.ts)
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
  });

  acceptHttpMethods(app);
  app.decorateRequest('clientId', ''); // set by requireBearer (declared there)
  app.decorateRequest('logNote', null); // set by refuse() and for a 503 (declared in logging.ts)
  useRequestGate(app, opts.isClosing ?? (() => false), opts.isDraining ?? (() => false));
  lingerAfterEarlyAnswers(app);


  useBodyParsers(app);
  answerWithinDeadline(app);
  const outage = new OutageWarnings(app.log);
  app.addHook('onClose', async () => outage.close());
  useErrorHandler(app, outage);
  if (opts.metrics) {
    const metrics = registerMetrics(app, opts.store);
    methodNotAllowed(app, '/metrics', ['GET']);
    opts = { ...opts, onTokenFailure: metrics.tokenFailed };
  }


  const publicUrl = () => opts.publicUrl ?? listeningUrl(app);
  // one per server: the failure limit and the remembered credentials span both versions
  const guard = new CredentialGuard(() => opts.now().getTime());
  registerHealth(app, opts.store, opts.onReadinessProbe);

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

/** The address a server listens on, as a URL (every interface: this machine's loopback). */
export function listeningUrl(app: FastifyInstance): string {
  const a = app.server.address();
  if (!a || typeof a === 'string') return 'http://127.0.0.1';
  const host = a.address === '0.0.0.0' ? '127.0.0.1' : a.address === '::' ? '::1' : a.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${a.port}`;
}
