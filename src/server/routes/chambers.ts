import type { FastifyInstance } from 'fastify';
import {
  ChamberCreate,
  ChamberGetQueryV2,
  ChambersQueryV2,
  INCLUDE_LIMIT,
  parseQuery,
  parseWith,
  type ApiVersion,
  type Chamber,
  type FieldErrors,
} from '../../contract/index.js';
import { parseJsonText } from '../../storage/store.js';
import { requireBearer } from '../auth/bearer.js';
import type { ServerDeps } from '../deps.js';
import { isJsonObject, sendError, sendFieldErrors } from '../errors.js';
import { answerFromKey, idempotentWrite } from '../idempotency.js';
import { auditOf } from '../audit.js';
import { parseVersionQuery, sendJsonText, sendPage } from './query.js';

type IdParams = { Params: { id: string } };

export const chamberNotFound = (id: string) => `chamber ${JSON.stringify(id)} was not found`;

export function registerChamberRoutes(app: FastifyInstance, version: ApiVersion, deps: ServerDeps): void {
  const onRequest = requireBearer(version, deps);

  app.get('/chambers', { onRequest }, async (request, reply) => {
    const q = parseVersionQuery(request, reply, version, ChambersQueryV2);
    if (!q) return reply;
    const page = await deps.store.listChambers({
      page: q.page,
      perPage: q.per_page,
      type: q['filter[type]'],
      status: q['filter[status]'],
      sort: q.sort,
    });
    return sendPage(reply, page, q);
  });

  app.get<IdParams>('/chambers/:id', { onRequest }, async (request, reply) => {
    let include: string[] = [];
    if (version === 'v2') {
      const r = parseQuery(ChamberGetQueryV2, request.query as Record<string, unknown>, { strictFilters: true });
      if (!r.ok) return sendFieldErrors(reply, 400, `invalid query parameter: include ${r.fields.include?.join('; ') ?? ''}`.trim(), r.fields);
      include = r.value.include ?? [];
    }
    const id = request.params.id;
    const chamber = await deps.store.getChamber(id);
    if (!chamber) return sendError(reply, 404, chamberNotFound(id));
    if (!include.length) return sendJsonText(reply, chamber);
    const full: Chamber = parseJsonText(chamber);
    const firstPage = { page: 1, perPage: INCLUDE_LIMIT };
    if (include.includes('members')) full.members = (await deps.store.listMembers(id, firstPage)).docs.map(parseJsonText);
    if (include.includes('events')) full.events = (await deps.store.listEvents(id, { ...firstPage, now: deps.now().toISOString() })).docs.map(parseJsonText);
    return full;
  });

  if (version !== 'v2') return;

  app.post('/chambers', { onRequest }, async (request, reply) => {
    const location = (id: string) => `/v2/chambers/${encodeURIComponent(id)}`;
    const idem = idempotentWrite(request, reply, deps, location);
    if (idem === null || (idem && (await answerFromKey(reply, deps, idem)))) return reply;
    if (!isJsonObject(request.body)) return sendError(reply, 400, 'the request body must be a JSON object (Content-Type: application/json)');
    const r = parseWith(ChamberCreate, request.body);
    const fields: FieldErrors = r.ok ? {} : r.fields;
    // The one rule the schema cannot check: hq_id must name an existing HQ.
    const hqId = r.ok ? r.value.hq_id : (request.body as { hq_id?: unknown }).hq_id;
    const type = r.ok ? r.value.type : (request.body as { type?: unknown }).type;
    if (type === 'subsidiary' && typeof hqId === 'string' && hqId && !fields.hq_id) {
      const hqType = await deps.store.chamberType(hqId.trim());
      if (hqType !== 'hq') fields.hq_id = [hqType ? 'must name a chamber of type hq' : 'must name an existing hq chamber'];
    }
    if (!r.ok || Object.keys(fields).length) return sendFieldErrors(reply, 422, 'validation failed', fields);
    const chamber = await deps.store.createChamber({ input: r.value, now: deps.now(), idem, audit: auditOf(request) });
    if (chamber === 'replay') {
      // another request with the key got there first, through this instance or another
      if (idem && (await answerFromKey(reply, deps, idem))) return reply;
      return sendError(reply, 409, 'a request with this Idempotency-Key is still in progress; retry it');
    }
    return reply.code(201).header('Location', location(chamber.id)).send(chamber);
  });
}
