import type { FastifyReply, FastifyRequest } from 'fastify';
import type * as z from 'zod/mini';
import { ListQueryV1, parseQuery, type ApiVersion, type FieldErrors } from '../../contract/index.js';
import { plainListQuery, plainListRule } from '../../contract/plain-list-query.js';
import type { Page } from '../../storage/store.js';
import { sendError, sendFieldErrors } from '../errors.js';

const summary = (fields: FieldErrors) =>
  Object.entries(fields)
    .map(([k, msgs]) => `${k} ${msgs.join('; ')}`)
    .join(', ');

/**
 * Parses the query with the version's schema: v1 knows paging only and ignores the rest
 * (docs/server-behaviour.md#paging); v2 also rejects unknown filter names. On failure the 400 is
 * sent and undefined returned. A query in the plain form is read without zod, to the same
 * value (contract/plain-list-query.ts).
 */
export function parseVersionQuery<S extends z.ZodMiniObject>(
  request: FastifyRequest,
  reply: FastifyReply,
  version: ApiVersion,
  v2Schema: S,
): z.output<S> | undefined {
  const raw = request.query as Record<string, unknown>;
  const rule = plainListRule(version === 'v1' ? ListQueryV1 : v2Schema);
  const plain = rule && plainListQuery(raw, rule);
  if (plain) return plain as z.output<S>;
  if (version === 'v1') {
    const r = parseQuery(ListQueryV1, raw, { strictFilters: false });
    // v1's result lacks the v2-only keys, which are all optional in the v2 schemas.
    if (r.ok) return r.value as z.output<S>;
    sendError(reply, 400, `invalid query parameter: ${summary(r.fields)}`);
    return undefined;
  }
  const r = parseQuery(v2Schema, raw, { strictFilters: true });
  if (r.ok) return r.value;
  sendFieldErrors(reply, 400, `invalid query parameter: ${summary(r.fields)}`, r.fields);
  return undefined;
}

/** Sends the list envelope around a page of JSON texts (no JSON.stringify of the items). */
export function sendPage<T>(reply: FastifyReply, page: Page<T>, q: { page: number; per_page: number }): FastifyReply {
  const meta = `{"current_page":${q.page},"total":${page.total},"per_page":${q.per_page}}`;
  return sendJsonText(reply, `{"data":[${page.docs.join(',')}],"meta":${meta}}`);
}

export function sendJsonText(reply: FastifyReply, text: string, status = 200): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(text);
}
