import type { FastifyInstance } from 'fastify';
import type { HealthOk, HealthUnavailable } from '../contract/index.js';
import type { DirectoryStore } from '../storage/store.js';
import { methodNotAllowed } from './routes/method-not-allowed.js';

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

/**
 * GET /healthz, readiness for a load balancer: 200 while the database answers within 2 s, 503
 * (and out of rotation) when not; GET /livez, liveness for an orchestrator that restarts a
 * stuck process: 200 while the process runs, whatever the database does.
 */
export function registerHealth(app: FastifyInstance, store: Pick<DirectoryStore, 'ping'>, onProbe: () => void = () => undefined): void {
  // A change of state is logged once (the probes that answer 200 are debug lines): what an
  // operator wants to read is when the instance left the rotation and when it came back.
  let unavailableSince: number | undefined; // performance.now(); undefined while ok, as at start
  app.get('/healthz', async (request, reply) => {
    onProbe();
    if (await answersWithin(store.ping(), HEALTH_TIMEOUT_MS)) {
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
}
