import type { FastifyInstance } from 'fastify';

/** A body that cannot be read: a 400 with this message (error-handler.ts). */
export class BadBody extends Error {
  readonly statusCode = 400;
  readonly code = 'CHAMBER_BAD_BODY';
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new BadBody('the request body is not valid JSON');
  }
}

/**
 * Bodies: JSON under any content type (so a missing or odd Content-Type still parses), and
 * form encoding, which only the token endpoint accepts (routes check the shape).
 */
export function useBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, new URLSearchParams(body as string)),
  );
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseJson(body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}
