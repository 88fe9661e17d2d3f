import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { IDEMPOTENCY_HEADER, IdempotencyKey } from '../contract/index.js';
import type { IdempotentWrite } from '../storage/store.js';
import type { ServerDeps } from './deps.js';
import { sendFieldErrors } from './errors.js';

// Idempotency-Key on the v2 POSTs (docs/server-behaviour.md#idempotency, as Stripe's API has it): a
// repeated key from the same client with the same request, within 24 hours, gets the first answer
// and creates nothing; the same key with another request is a 422 naming the header. Only a
// creation is remembered: a request that was refused (422, 409) is judged again when repeated.

/**
 * The request's key, ready for the store: undefined without the header, null when the header
 * is malformed (the 400 is then sent).
 */
export function idempotentWrite(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: ServerDeps,
  location: (id: string) => string,
): IdempotentWrite | undefined | null {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  const key = typeof header === 'string' ? IdempotencyKey.safeParse(header) : undefined;
  if (!key?.success) {
    sendFieldErrors(reply, 400, `the ${IDEMPOTENCY_HEADER} header must be 1 to 255 visible ASCII characters, sent once`, {
      [IDEMPOTENCY_HEADER]: [key?.error.issues[0]?.message ?? 'must be 1 to 255 visible ASCII characters'],
    });
    return null;
  }
  const path = request.url.split('?')[0]!;
  return {
    clientId: request.clientId,
    key: key.data,
    requestHash: requestHash(request.method, path, request.bodyBytes),
    nowMs: deps.now().getTime(),
    location,
  };
}

/**
 * The request as a key's answer remembers it: method, path and the body's bytes as received
 * (not a serialisation of the parsed body, which costs a pass over it and, for a body nested
 * deep enough, overflows the stack).
 */
function requestHash(method: string, path: string, body: Buffer | null): string {
  const hash = createHash('sha256').update(`${method} ${path}\n`);
  if (body) hash.update(body);
  return hash.digest('base64url');
}

/**
 * Answers from the key's stored answer, if it has one: the first answer again (with
 * `Idempotent-Replayed: true`), or a 422 when the key came with another request. Returns
 * whether it answered.
 */
export async function answerFromKey(reply: FastifyReply, deps: ServerDeps, idem: IdempotentWrite): Promise<boolean> {
  const stored = await deps.store.findAnswer(idem.clientId, idem.key, idem.nowMs);
  if (!stored) return false;
  if (stored.requestHash !== idem.requestHash) {
    sendFieldErrors(reply, 422, `this ${IDEMPOTENCY_HEADER} was already used with another request`, {
      [IDEMPOTENCY_HEADER]: ['was already used with another request (method, path or body) within 24 hours'],
    });
    return true;
  }
  reply.code(stored.status).header('Idempotent-Replayed', 'true').type('application/json; charset=utf-8');
  if (stored.location) reply.header('Location', stored.location);
  reply.send(stored.body);
  return true;
}
