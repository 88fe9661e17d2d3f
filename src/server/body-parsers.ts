import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body's bytes as received (a JSON body), for Idempotency-Key's hash; null without one. */
    bodyBytes: Buffer | null;
  }
}

/** A body that cannot be read: a 400 with this message (error-handler.ts). */
export class BadBody extends Error {
  readonly statusCode = 400;
  readonly code = 'CHAMBER_BAD_BODY';
}

/**
 * How deep a JSON body may nest arrays and objects (docs/server-behaviour.md#limits). The
 * interface's deepest document has 2 levels (a chamber and its address); JSON.parse of
 * 500,000 levels holds the event loop for most of a second, so a deeper body is refused by
 * a scan of its brackets before it is parsed.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether JSON `bytes` nest arrays and objects deeper than `max`: one pass over the bytes,
 * counting brackets outside strings (UTF-8 never puts an ASCII byte inside another
 * character). Stops at the first level too deep. Malformed JSON is left to JSON.parse.
 */
export function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (inString) {
      if (c === 0x5c) i++; // a backslash: the next byte is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

function parseJson(request: FastifyRequest, bytes: Buffer): unknown {
  request.bodyBytes = bytes;
  if (nestsDeeperThan(bytes, MAX_JSON_DEPTH)) {
    throw new BadBody(`the request body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels`);
  }
  const text = bytes.toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new BadBody('the request body is not valid JSON');
  }
}

/**
 * Bodies are read only in the media types a route takes (docs/server-behaviour.md#requests):
 * `application/json` everywhere; any other Content-Type, or none, is a 415 before the body is
 * read. The token endpoint adds form encoding in its own scope (useFormBodies).
 */
export function useBodyParsers(app: FastifyInstance): void {
  app.decorateRequest('bodyBytes', null);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      done(null, parseJson(request, body as Buffer));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}

/** `application/x-www-form-urlencoded`, for the routes of `scope` (the token endpoint's). */
export function useFormBodies(scope: FastifyInstance): void {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, new URLSearchParams(body as string)),
  );
}
