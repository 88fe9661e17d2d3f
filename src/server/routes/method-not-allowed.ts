import type { FastifyInstance, HTTPMethods } from 'fastify';
import type { ApiVersion } from '../../contract/index.js';
import { sendError } from '../errors.js';

/** Every path either version serves, and the methods each version serves on it. */
export const ROUTE_TABLE: { path: string; v1: HTTPMethods[]; v2: HTTPMethods[] }[] = [
  { path: '/auth/token', v1: ['POST'], v2: ['POST'] },
  { path: '/openapi.json', v1: ['GET'], v2: ['GET'] },
  { path: '/chambers', v1: ['GET'], v2: ['GET', 'POST'] },
  { path: '/chambers/:id', v1: ['GET'], v2: ['GET'] },
  { path: '/chambers/:id/members', v1: ['GET'], v2: ['GET', 'POST'] },
  { path: '/chambers/:id/members/:member_id', v1: [], v2: ['GET'] },
  { path: '/chambers/:id/events', v1: [], v2: ['GET'] },
];

const ALL_METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * A path that exists (in this version or the other) answers any method it does not serve
 * with 405 and an `Allow` header listing what it does serve; empty when only the other
 * version has the path (RFC 9110 section 10.2.1).
 */
export function registerMethodNotAllowed(app: FastifyInstance, version: ApiVersion): void {
  for (const route of ROUTE_TABLE) {
    const served = route[version];
    const allow = served.includes('GET') ? [...served.slice(0, 1), 'HEAD', ...served.slice(1)] : served;
    // Fastify answers HEAD itself wherever GET is served.
    const missing = ALL_METHODS.filter((m) => !allow.includes(m));
    if (!missing.length) continue;
    const other = version === 'v1' ? 'v2' : 'v1';
    app.route({
      method: missing,
      url: route.path,
      handler: async (request, reply) => {
        reply.header('Allow', allow.join(', '));
        const method = request.method as HTTPMethods;
        const hint = route[other].includes(method) ? ` (${method} is served by /${other})` : '';
        return sendError(reply, 405, `method ${request.method} is not allowed on this path${hint}`);
      },
    });
  }
}
