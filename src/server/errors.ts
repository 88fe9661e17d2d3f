import type { FastifyReply } from 'fastify';
import type { FieldErrors } from '../contract/index.js';

// Every error body is JSON (docs/server-behaviour.md#errors); these helpers are the only way routes
// send one.

export const REALM = 'chamber-directory';

export function sendError(reply: FastifyReply, status: number, error: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ error });
}

/** The 404 of a path no route serves (answered before its body is read: request-gate.ts). */
export function sendNoSuchPath(reply: FastifyReply): FastifyReply {
  const { method, url } = reply.request;
  return sendError(reply, 404, `no such path: ${method} ${url.split('?')[0]}`);
}

export function sendFieldErrors(reply: FastifyReply, status: number, error: string, fields: FieldErrors): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ error, fields });
}

export type OAuthError = 'invalid_request' | 'invalid_client' | 'invalid_scope' | 'unsupported_grant_type' | 'invalid_token' | 'temporarily_unavailable';

/** Token endpoint errors (RFC 6749 section 5.2); never cached. */
export function sendOAuthError(
  reply: FastifyReply,
  status: number,
  error: OAuthError,
  description: string,
  basicChallenge = false,
): FastifyReply {
  reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
  if (basicChallenge) reply.header('WWW-Authenticate', `Basic realm="${REALM}"`);
  return reply.code(status).type('application/json; charset=utf-8').send({ error, error_description: description });
}

/** Resource endpoint 401 (RFC 6750 section 3): no error code in the header when no token was sent. */
export function sendBearerError(reply: FastifyReply, description: string, tokenSent: boolean): FastifyReply {
  const challenge = tokenSent
    ? `Bearer realm="${REALM}", error="invalid_token", error_description="${description.replace(/["\\]/g, '')}"`
    : `Bearer realm="${REALM}"`;
  return reply
    .code(401)
    .header('WWW-Authenticate', challenge)
    .type('application/json; charset=utf-8')
    .send({ error: 'invalid_token', error_description: description });
}

/**
 * A token without the scope a request needs: 403 (RFC 6750 section 3.1;
 * docs/server-behaviour.md#tokens).
 */
export function sendInsufficientScope(reply: FastifyReply, scope: 'write', description: string): FastifyReply {
  return reply
    .code(403)
    .header('WWW-Authenticate', `Bearer error="insufficient_scope", scope="${scope}"`)
    .type('application/json; charset=utf-8')
    .send({ error: 'insufficient_scope', error_description: description });
}

/** True for a parsed JSON object body (not an array, not form data, not absent). */
export function isJsonObject(body: unknown): body is Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && !(body instanceof URLSearchParams);
}
