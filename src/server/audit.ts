import type { FastifyRequest } from 'fastify';
import type { AuditContext } from '../storage/store.js';

/**
 * Who made a write, for its audit record (docs/guides/team-access.md): the token's client, the
 * address the request came from (`request.ip`: the peer's, so behind a load balancer the
 * balancer's, unless `serve --trust-proxy` trusts the balancer's X-Forwarded-For; the same
 * address as the request's log line), and the request id that the answer and the log lines carry.
 */
export const auditOf = (request: FastifyRequest): AuditContext => ({
  clientId: request.clientId,
  address: request.ip,
  requestId: request.id,
});
