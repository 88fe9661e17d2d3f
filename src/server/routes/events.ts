import type { FastifyInstance } from 'fastify';
import { EventsQueryV2 } from '../../contract/index.js';
import { requireBearer } from '../auth/bearer.js';
import type { ServerDeps } from '../deps.js';
import { sendError } from '../errors.js';
import { chamberNotFound } from './chambers.js';
import { parseVersionQuery, sendPage } from './query.js';

/** GET /v2/chambers/{id}/events (v2 only). */
export function registerEventRoutes(app: FastifyInstance, deps: ServerDeps): void {
  app.get<{ Params: { id: string } }>('/chambers/:id/events', { onRequest: requireBearer('v2', deps) }, async (request, reply) => {
    const q = parseVersionQuery(request, reply, 'v2', EventsQueryV2);
    if (!q) return reply;
    const page = await deps.store.listEvents(request.params.id, {
      page: q.page,
      perPage: q.per_page,
      status: q['filter[status]'],
      from: q['filter[date_from]'],
      to: q['filter[date_to]'],
      now: deps.now().toISOString(),
    });
    // an empty list may be a chamber that does not exist: only then is it looked up
    if (page.total === 0 && !(await deps.store.chamberType(request.params.id))) return sendError(reply, 404, chamberNotFound(request.params.id));
    return sendPage(reply, page, q);
  });
}
