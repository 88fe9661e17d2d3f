import type { FastifyRequest } from 'fastify';
import type { AuditContext } from '../storage/store.js';

/**
 * Who made a write, for its audit record (README, "Team access"): the token's client, the
 * address the request came from (the peer's: behind a load balancer, the balancer's; no
 * X-Forwarded-For is trusted), and the request id that the answer and the log lines carry.
 */
export const auditOf = (request: FastifyRequest): AuditContext => ({
  clientId: request.clientId,
  address: request.ip,
  requestId: request.id,
});
