import { METHODS } from 'node:http';
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

/**
 * Every method node's HTTP parser accepts (TRACE, PROPFIND, PURGE, …): a known path answers
 * each one it does not serve with 405. CONNECT is not a request for a path. buildApp lets
 * Fastify route them all (acceptHttpMethods).
 */
const ALL_METHODS = METHODS.filter((m) => m !== 'CONNECT') as HTTPMethods[];

/** Makes Fastify route every method of ALL_METHODS (it knows only the common ones). */
export function acceptHttpMethods(app: FastifyInstance): void {
  const known = new Set(app.supportedMethods);
  for (const m of ALL_METHODS) if (!known.has(m)) app.addHttpMethod(m, { hasBody: true });
}

/**
 * Answers every method `served` does not include with 405 and an `Allow` header listing
 * what is served (`HEAD` wherever `GET` is; empty when only the other version has the
 * path, RFC 9110 section 10.2.1). It answers in onRequest, before any body is read, so a
 * 405 stays a 405 whatever the body. `hint` names where the method is served, if anywhere.
 */
export function methodNotAllowed(
  app: FastifyInstance,
  path: string,
  served: HTTPMethods[],
  hint: (method: HTTPMethods) => string = () => '',
): void {
  const allow = served.includes('GET') ? [...served.slice(0, 1), 'HEAD', ...served.slice(1)] : served;
  // Fastify answers HEAD itself wherever GET is served.
  const missing = ALL_METHODS.filter((m) => !allow.includes(m));
  if (!missing.length) return;
  app.route({
    method: missing,
    url: path,
    onRequest: async (request, reply) => {
      reply.header('Allow', allow.join(', '));
      return sendError(reply, 405, `method ${request.method} is not allowed on this path${hint(request.method as HTTPMethods)}`);
    },
    handler: async () => undefined, // never reached: onRequest has answered
  });
}

/** The 405s of one version's paths (ROUTE_TABLE). */
export function registerMethodNotAllowed(app: FastifyInstance, version: ApiVersion): void {
  const other = version === 'v1' ? 'v2' : 'v1';
  for (const route of ROUTE_TABLE) {
    methodNotAllowed(app, route.path, route[version], (method) =>
      route[other].includes(method) ? ` (${method} is served by /${other})` : '',
    );
  }
}
