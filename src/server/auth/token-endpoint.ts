import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GRANT_TYPE, SCOPES, TOKEN_LIFETIME_SECONDS, type ApiVersion, type Scope, type TokenResponse } from '../../contract/index.js';
import type { ClientAuth } from '../../storage/store.js';
import { noteClientUse } from './client-use.js';
import { isJsonObject, sendOAuthError } from '../errors.js';
import type { ServerDeps } from '../deps.js';
import { setTimeout as delay } from 'node:timers/promises';
import { LIMITED_ANSWER_DELAY_MS, type CredentialGuard } from './credential-guard.js';
import { refuse } from '../logging.js';
import { newAccessToken, tokenHash, verifySecret } from './secrets.js';
import { useFormBodies } from '../body-parsers.js';

/**
 * The token endpoint's body limit (docs/server-behaviour.md#limits): its parameters take a few
 * hundred bytes, and a body is read before its credentials can be counted against the
 * failure limit, so it takes 4 KiB rather than the 1 MiB of the other routes.
 */
export const TOKEN_BODY_LIMIT = 4 * 1024;

interface Credentials {
  clientId: string;
  clientSecret: string;
}

/** RFC 6749 section 2.3.1: Basic credentials are form-urlencoded before base64. */
function parseBasic(header: string): Credentials | null {
  const m = /^Basic\s+([A-Za-z0-9+/=._~-]+)\s*$/i.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  const unform = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
  try {
    return { clientId: unform(decoded.slice(0, colon)), clientSecret: unform(decoded.slice(colon + 1)) };
  } catch {
    return null;
  }
}

/** The body as a map of string parameters, from JSON or form encoding; null when it is neither. */
function bodyParams(body: unknown): Map<string, unknown> | null {
  if (body === undefined || body === null || body === '') return new Map();
  if (body instanceof URLSearchParams) {
    const out = new Map<string, unknown>();
    for (const key of new Set(body.keys())) {
      const all = body.getAll(key);
      out.set(key, all.length === 1 ? all[0] : all); // a repeated parameter is invalid (RFC 6749 3.2)
    }
    return out;
  }
  if (isJsonObject(body)) return new Map(Object.entries(body));
  return null;
}

/** POST /{version}/auth/token: the client credentials grant, issuing tokens bound to `version`. */
export function registerTokenEndpoint(app: FastifyInstance, version: ApiVersion, deps: ServerDeps, guard: CredentialGuard): void {
  // a scope of its own: form encoding is read here only
  app.register(async (scope) => {
    useFormBodies(scope);
    scope.post('/auth/token', { bodyLimit: TOKEN_BODY_LIMIT }, (request, reply) => issueToken(request, reply, version, deps, guard));
  });
}

async function issueToken(request: FastifyRequest, reply: FastifyReply, version: ApiVersion, deps: ServerDeps, guard: CredentialGuard) {
  deps.stats.tokenRequests++;
  reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');

  const params = bodyParams(request.body);
  if (!params) return sendOAuthError(reply, 400, 'invalid_request', 'the body must be a JSON object or form-encoded');
  for (const [key, value] of params) {
    if (typeof value !== 'string') {
      return sendOAuthError(reply, 400, 'invalid_request', `parameter ${key} must be a single string`);
    }
  }
  const get = (k: string) => params.get(k) as string | undefined;

  const grantType = get('grant_type');
  if (!grantType) return sendOAuthError(reply, 400, 'invalid_request', 'grant_type is required');
  if (grantType !== GRANT_TYPE) {
    return sendOAuthError(reply, 400, 'unsupported_grant_type', 'only grant_type=client_credentials is supported');
  }

  let creds: Credentials;
  const authorization = request.headers.authorization;
  const usedBasic = typeof authorization === 'string' && /^Basic\b/i.test(authorization);
  if (usedBasic) {
    const basic = parseBasic(authorization);
    if (!basic) {
      refuse(request, 'malformed_credentials');
      return sendOAuthError(reply, 401, 'invalid_client', 'client authentication failed', true);
    }
    const bodyId = get('client_id');
    // One authentication method per request (RFC 6749 2.3); a matching client_id in the
    // body is tolerated because common OAuth libraries send it alongside Basic.
    if (get('client_secret') !== undefined || (bodyId !== undefined && bodyId !== basic.clientId)) {
      return sendOAuthError(reply, 400, 'invalid_request', 'send the client credentials either by HTTP Basic or in the body, not both');
    }
    creds = basic;
  } else {
    const clientId = get('client_id');
    const clientSecret = get('client_secret');
    if (!clientId) return sendOAuthError(reply, 400, 'invalid_request', 'client_id is required');
    if (!clientSecret) return sendOAuthError(reply, 400, 'invalid_request', 'client_secret is required');
    creds = { clientId, clientSecret };
  }

  const asked = parseScope(get('scope'));
  if (asked === null) {
    return sendOAuthError(reply, 400, 'invalid_scope', 'scope must be read, write, or both separated by a space');
  }

  // The client's standing is read from the database on every token request, so neither a
  // revocation nor the end of a rotation's grace waits for any memory to expire.
  const nowMs = deps.now().getTime();
  const client = await deps.store.clientAuth(creds.clientId);
  const valid = validHashes(client, nowMs);
  let matched = guard.remembers(creds.clientId, creds.clientSecret, valid);
  if (!matched) {
    const limited = guard.admit(request.ip, client && creds.clientId);
    if (limited) {
      // Held back a moment: a flood waiting on its own answers sends fewer requests, so
      // answering it costs less of what good clients need (bench:token).
      deps.onTokenFailure?.('rate_limited');
      // a flood's made-up ids are not worth naming (nor a lookup each): a client's id is
      refuse(request, 'rate_limited', client && creds.clientId);
      await delay(LIMITED_ANSWER_DELAY_MS);
      reply.header('Retry-After', String(limited.retryAfterSeconds));
      const from = limited.limit === 'address' ? 'from this address' : 'of this client';
      return sendOAuthError(reply, 429, 'temporarily_unavailable', `too many failed client authentications ${from}; try again in ${limited.retryAfterSeconds} s`);
    }
    matched = await firstMatching(creds.clientSecret, valid);
    if (!matched) {
      const reason = client === undefined ? 'unknown_client' : client.revokedAt ? 'revoked_client' : 'wrong_secret';
      deps.onTokenFailure?.(reason);
      refuse(request, reason, client || !(await isClientId(deps, creds.clientSecret)) ? creds.clientId : undefined);
      return sendOAuthError(reply, 401, 'invalid_client', 'client authentication failed', usedBasic);
    }
    guard.succeeded(request.ip, creds.clientId);
    guard.remember(creds.clientId, creds.clientSecret, matched);
  }
  const held = client!.scope;
  if (asked?.includes('write') && held !== 'write') {
    return sendOAuthError(reply, 400, 'invalid_scope', `this client holds the ${held} scope only`);
  }
  const scope: Scope = asked ? (asked.includes('write') ? 'write' : 'read') : held;

  await deps.store.purgeExpiredTokens(nowMs);
  await deps.store.purgeExpiredAnswers(nowMs); // Idempotency-Key answers past their 24 hours
  const token = newAccessToken();
  let expiresAt = nowMs + TOKEN_LIFETIME_SECONDS * 1000;
  // a token issued with a rotated secret ends with the secret's grace
  if (matched !== client!.secretHash) expiresAt = Math.min(expiresAt, Date.parse(client!.oldSecretValidUntil!));
  if (!(await deps.store.saveToken(tokenHash(token), creds.clientId, version, expiresAt, scope))) {
    deps.onTokenFailure?.('revoked_client'); // revoked while its secret was being checked
    refuse(request, 'revoked_client', creds.clientId);
    return sendOAuthError(reply, 401, 'invalid_client', 'client authentication failed', usedBasic);
  }
  noteClientUse(deps, creds.clientId);
  request.clientId = creds.clientId; // for the request's log line
  const expiresIn = Math.max(0, Math.floor((expiresAt - nowMs) / 1000));
  return reply.code(200).send({ access_token: token, token_type: 'Bearer', expires_in: expiresIn, scope } satisfies TokenResponse);
}

/** The asked scopes (RFC 6749 section 3.3: space-separated); undefined when none asked, null when malformed. */
function parseScope(raw: string | undefined): Scope[] | undefined | null {
  if (raw === undefined) return undefined;
  const parts = raw.split(' ').filter((p) => p !== '');
  if (parts.length === 0 || !parts.every((p): p is Scope => (SCOPES as readonly string[]).includes(p))) return null;
  return parts;
}

/**
 * Whether `secret` is a client's id: an unknown client id sent with it is then most likely
 * that client's secret, the two swapped, and is not logged as a client id (docs/operations/shared-deployment.md#logs).
 */
async function isClientId(deps: ServerDeps, secret: string): Promise<boolean> {
  if (!/^[A-Za-z0-9._@-]{1,64}$/.test(secret)) return false;
  return (await deps.store.clientAuth(secret).catch(() => undefined)) !== undefined;
}

/** The hashes a secret may match now: none for an unknown or revoked client. */
function validHashes(client: ClientAuth | undefined, nowMs: number): string[] {
  if (!client || client.revokedAt) return [];
  const old = client.oldSecretHash && client.oldSecretValidUntil && Date.parse(client.oldSecretValidUntil) > nowMs ? [client.oldSecretHash] : [];
  return [client.secretHash, ...old];
}

/** The hash `secret` matches; with none to match, a dummy check of the same cost (timing says nothing). */
async function firstMatching(secret: string, hashes: string[]): Promise<string | undefined> {
  if (hashes.length === 0) {
    await verifySecret(secret, undefined);
    return undefined;
  }
  for (const hash of hashes) if (await verifySecret(secret, hash)) return hash;
  return undefined;
}
