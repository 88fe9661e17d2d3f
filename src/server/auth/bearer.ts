import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiVersion } from '../../contract/index.js';
import type { ServerDeps } from '../deps.js';
import { sendBearerError } from '../errors.js';
import { tokenHash } from './secrets.js';

/** A preHandler that admits only a live bearer token issued by this version's token endpoint. */
export function requireBearer(version: ApiVersion, deps: ServerDeps) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization;
    if (!header) return sendBearerError(reply, 'a bearer token is required', false);
    const m = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (!m) return sendBearerError(reply, 'the Authorization header is not a bearer token', true);
    const found = deps.storage.findToken(tokenHash(m[1]!));
    if (!found) return sendBearerError(reply, 'the access token is not valid', true);
    if (found.expiresAt <= deps.now().getTime()) return sendBearerError(reply, 'the access token has expired', true);
    if (found.version !== version) {
      return sendBearerError(reply, `the access token was issued by ${found.version} and is not valid on ${version}`, true);
    }
  };
}
