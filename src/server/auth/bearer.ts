import type { FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API client the bearer token was issued to (set by requireBearer; by the token endpoint for its log line). */
    clientId: string;
  }
}
import type { ApiVersion } from '../../contract/index.js';
import type { ServerDeps } from '../deps.js';
import { sendBearerError, sendInsufficientScope } from '../errors.js';
import type { Scope, TokenRecord } from '../../storage/store.js';
import { noteClientUse } from './client-use.js';
import { refuse } from '../logging.js';
import { tokenHashBase64 } from './secrets.js';

// A token found once is trusted from memory for RECHECK_MS, then looked up again: the map (keyed by
// the token's hash, like the table) spares a database lookup per request, and the lookup again is
// what ends a token within 1 s of its client's revocation or of a rotation's grace, whichever
// instance did it and on either backend (docs/server-behaviour.md#tokens). A re-check rather than
// PostgreSQL's LISTEN/NOTIFY: it holds for SQLite too (`chamberctl clients revoke` runs in another
// process), needs no connection outside --pool-size, and costs one indexed lookup per token in use
// per RECHECK_MS (docs/performance.md#what-the-token-check-costs-team-access). Bounded: emptied when it grows past
// MAX_CACHED.
export const RECHECK_MS = 500;
const MAX_CACHED = 10_000;
const known = new WeakMap<ServerDeps, Map<string, TokenRecord & { checkedAt: number }>>();

async function lookup(deps: ServerDeps, token: string): Promise<TokenRecord | undefined> {
  let cache = known.get(deps);
  if (!cache) known.set(deps, (cache = new Map()));
  const key = tokenHashBase64(token);
  const now = performance.now(); // wall time, not the injected clock: this is about propagation
  const remembered = cache.get(key);
  if (remembered && now - remembered.checkedAt < RECHECK_MS) return remembered;
  const found = await deps.store.findToken(Buffer.from(key, 'base64'));
  if (!found) {
    cache.delete(key);
    return undefined;
  }
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(key, { ...found, checkedAt: now });
  return found;
}

/**
 * An onRequest hook that admits only a live bearer token issued by this version's token
 * endpoint, with the scope the request's method needs: `read` for GET and HEAD, `write` for
 * any other method. That follows from what the route is, so a new route that changes data
 * needs `write` without anyone remembering to ask for it. It runs before the body is read,
 * so a request without a valid token gets its 401 (a token without the scope its 403)
 * whatever its body (and a client with an expired token learns to renew it).
 */
export function requireBearer(version: ApiVersion, deps: ServerDeps) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const scope: Scope = request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write';
    // each refusal names its reason in the request's log line, and the client once the token is known
    const header = request.headers.authorization;
    if (!header) {
      refuse(request, 'missing_token');
      return sendBearerError(reply, 'a bearer token is required', false);
    }
    const m = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (!m) {
      refuse(request, 'malformed_token');
      return sendBearerError(reply, 'the Authorization header is not a bearer token', true);
    }
    const found = await lookup(deps, m[1]!);
    if (!found) {
      refuse(request, 'unknown_token'); // never issued, purged, or its client revoked: no client to name
      return sendBearerError(reply, 'the access token is not valid', true);
    }
    if (found.expiresAt <= deps.now().getTime()) {
      refuse(request, 'expired_token', found.clientId);
      return sendBearerError(reply, 'the access token has expired', true);
    }
    if (found.version !== version) {
      refuse(request, 'wrong_version', found.clientId);
      return sendBearerError(reply, `the access token was issued by ${found.version} and is not valid on ${version}`, true);
    }
    request.clientId = found.clientId;
    noteClientUse(deps, found.clientId);
    if (scope === 'write' && found.scope !== 'write') {
      refuse(request, 'insufficient_scope', found.clientId);
      return sendInsufficientScope(reply, 'write', `this request needs the write scope; the token has ${found.scope}`);
    }
  };
}
