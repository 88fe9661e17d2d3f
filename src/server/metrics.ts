import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DirectoryStore } from '../storage/store.js';

/** Why a token request was refused, as `/metrics` counts it. */
export type TokenFailure = 'unknown_client' | 'wrong_secret' | 'revoked_client' | 'rate_limited';
const TOKEN_FAILURES: TokenFailure[] = ['unknown_client', 'wrong_secret', 'revoked_client', 'rate_limited'];

/**
 * `serve --metrics`: GET /metrics in the Prometheus text format (docs/operations/shared-deployment.md#metrics). A registry
 * of this server's own, not prom-client's global one, so two servers in one process (tests)
 * count apart. Off by default: the route is not registered, and /metrics is a 404 like any
 * unknown path.
 */
export function registerMetrics(app: FastifyInstance, store: DirectoryStore): { tokenFailed(reason: TokenFailure): void } {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry }); // process CPU, memory, event-loop lag, GC

  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer a request, by method, route (the route pattern, not the path) and status code.',
    labelNames: ['method', 'route', 'status_code'],
    // from a cached lookup (~1 ms) to the 4 s deadline that answers 503
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // an unknown path is one label value, not one per path a scanner tries
    const route = request.routeOptions.url ?? 'unmatched';
    duration.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  const pool = store.poolStats?.bind(store);
  if (pool) {
    new Gauge({
      name: 'chamberctl_db_pool_connections',
      help: 'Connections to the database this instance holds open, by state (open = busy + idle).',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const s = pool();
        this.set({ state: 'open' }, s.open);
        this.set({ state: 'idle' }, s.idle);
      },
    });
    new Gauge({
      name: 'chamberctl_db_pool_waiting_requests',
      help: 'Queries waiting for a free connection to the database.',
      registers: [registry],
      collect() {
        this.set(pool().waiting);
      },
    });
  }

  const tokenFailures = new Counter({
    name: 'chamberctl_token_failures_total',
    help: `Token requests refused, by reason: ${TOKEN_FAILURES.join(', ')}.`,
    labelNames: ['reason'],
    registers: [registry],
  });
  for (const reason of TOKEN_FAILURES) tokenFailures.inc({ reason }, 0); // every series from the start

  app.get('/metrics', async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()));
  return { tokenFailed: (reason) => tokenFailures.inc({ reason }) };
}
