import type { FastifyInstance } from 'fastify';
import { MemberCreate, MembersQueryV2, parseWith, type ApiVersion } from '../../contract/index.js';
import { requireBearer } from '../auth/bearer.js';
import type { ServerDeps } from '../deps.js';
import { isJsonObject, sendError, sendFieldErrors } from '../errors.js';
import { answerFromKey, idempotentWrite } from '../idempotency.js';
import { auditOf } from '../audit.js';
import { chamberNotFound } from './chambers.js';
import { parseVersionQuery, sendJsonText, sendPage } from './query.js';

type ChamberParams = { Params: { id: string } };

export function registerMemberRoutes(app: FastifyInstance, version: ApiVersion, deps: ServerDeps): void {
  const onRequest = requireBearer(version, deps);

  app.get<ChamberParams>('/chambers/:id/members', { onRequest }, async (request, reply) => {
    const q = parseVersionQuery(request, reply, version, MembersQueryV2);
    if (!q) return reply;
    const page = await deps.store.listMembers(request.params.id, {
      page: q.page,
      perPage: q.per_page,
      status: q['filter[status]'],
      sort: q.sort,
    });
    // an empty list may be a chamber that does not exist: only then is it looked up
    if (page.total === 0 && !(await deps.store.chamberType(request.params.id))) return sendError(reply, 404, chamberNotFound(request.params.id));
    return sendPage(reply, page, q);
  });

  if (version !== 'v2') return;

  app.post<ChamberParams>('/chambers/:id/members', { onRequest }, async (request, reply) => {
    const chamberId = request.params.id;
    const location = (id: string) => `/v2/chambers/${encodeURIComponent(chamberId)}/members/${encodeURIComponent(id)}`;
    const idem = idempotentWrite(request, reply, deps, location);
    if (idem === null || (idem && (await answerFromKey(reply, deps, idem)))) return reply;
    // An absent chamber is a 404 whatever the body. The store checks it as it adds (one
    // statement on PostgreSQL); a body that is refused first checks it here.
    // (A boolean, not the reply: awaiting a reply waits for it to be sent and yields nothing.)
    const absent = async () => {
      if (await deps.store.chamberType(chamberId)) return false;
      sendError(reply, 404, chamberNotFound(chamberId));
      return true;
    };
    if (!isJsonObject(request.body)) {
      return (await absent()) ? reply : sendError(reply, 400, 'the request body must be a JSON object (Content-Type: application/json)');
    }
    const r = parseWith(MemberCreate, request.body);
    if (!r.ok) return (await absent()) ? reply : sendFieldErrors(reply, 422, 'validation failed', r.fields);
    const member = await deps.store.addMember({ chamberId, input: r.value, now: deps.now(), idem, audit: auditOf(request) });
    if (member === 'no-chamber') return sendError(reply, 404, chamberNotFound(chamberId));
    // a request with the same key may have got there first (through any instance)
    if (member !== 'duplicate' && member !== 'replay') {
      return reply.code(201).header('Location', location(member.id)).send(member);
    }
    if (idem && (await answerFromKey(reply, deps, idem))) return reply;
    if (member === 'replay') return sendError(reply, 409, 'a request with this Idempotency-Key is still in progress; retry it');
    return sendFieldErrors(reply, 409, 'a member with this e-mail address already exists in this chamber', {
      email: ['is already a member of this chamber'],
    });
  });

  // Not in the interface document: makes the Location of a new member resolvable (docs/server-behaviour.md#extensions).
  app.get<{ Params: { id: string; member_id: string } }>('/chambers/:id/members/:member_id', { onRequest }, async (request, reply) => {
    const member = await deps.store.getMember(request.params.id, request.params.member_id);
    if (!member) return sendError(reply, 404, `member ${JSON.stringify(request.params.member_id)} was not found in chamber ${JSON.stringify(request.params.id)}`);
    return sendJsonText(reply, member);
  });
}
