import type { FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API client the bearer token was issued to (set by requireBearer). */
    clientId: string;
  }
}
import type { ApiVersion } from '../../contract/index.js';
import type { ServerDeps } from '../deps.js';
import { sendBearerError } from '../errors.js';
import { tokenHash } from './secrets.js';

// Tokens are never revoked before they expire, so a token found once can be trusted from
// memory until its expiry; the map (keyed by the token's hash, like the table) spares a
// database lookup per request. Bounded: it is emptied when it grows past MAX_CACHED.
const MAX_CACHED = 10_000;
const known = new WeakMap<ServerDeps, Map<string, { version: string; expiresAt: number; clientId: string }>>();

async function lookup(deps: ServerDeps, token: string) {
  let cache = known.get(deps);
  if (!cache) known.set(deps, (cache = new Map()));
  const hash = tokenHash(token);
  const key = hash.toString('base64');
  let found = cache.get(key);
  if (!found) {
    found = await deps.store.findToken(hash);
    if (!found) return undefined;
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(key, found);
  }
  return found;
}

/**
 * An onRequest hook that admits only a live bearer token issued by this version's token
 * endpoint. It runs before the body is read, so a request without a valid token gets its
 * 401 whatever its body (and a client with an expired token learns to renew it).
 */
export function requireBearer(version: ApiVersion, deps: ServerDeps) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization;
    if (!header) return sendBearerError(reply, 'a bearer token is required', false);
    const m = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (!m) return sendBearerError(reply, 'the Authorization header is not a bearer token', true);
    const found = await lookup(deps, m[1]!);
    if (!found) return sendBearerError(reply, 'the access token is not valid', true);
    if (found.expiresAt <= deps.now().getTime()) return sendBearerError(reply, 'the access token has expired', true);
    if (found.version !== version) {
      return sendBearerError(reply, `the access token was issued by ${found.version} and is not valid on ${version}`, true);
    }
    request.clientId = found.clientId;
  };
}
