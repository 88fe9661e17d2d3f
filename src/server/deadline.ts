import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Every request is answered within 5 s whatever the database does
 * (docs/server-behaviour.md#deadline): one that has not been answered after this long gets 503,
 * leaving a second for a loaded machine and the network. The driver's own bounds (storage/postgres)
 * are shorter; this is the backstop for a request that makes several slow queries, or a query on a
 * connection gone silent.
 */
export const REQUEST_DEADLINE_MS = 4000;

/** Raised into the error handler when a request's deadline passes unanswered. */
export class DeadlinePassed extends Error {
  readonly code = 'CHAMBER_DEADLINE_PASSED';
  constructor(readonly ms: number) {
    super(`no answer within ${ms / 1000} s`);
  }
}

const PASSED = Symbol('deadline passed');
type WithDeadline = FastifyRequest & { [PASSED]?: boolean };

/**
 * Fastify 5.12's own `handlerTimeout` is not used: it stops its timer when the request's
 * body has been read (IncomingMessage's 'close'), so a POST is never cut
 * (fastify/fastify#6725, open as of 5.12.8). This does the same with a timer of its own,
 * started when the request arrives and cleared when the answer is sent or the client goes.
 */
export function answerWithinDeadline(app: FastifyInstance, ms = REQUEST_DEADLINE_MS): void {
  // with `done` rather than async: no promise and no microtask per request
  app.addHook('onRequest', (request: WithDeadline, reply: FastifyReply, done: () => void) => {
    const timer = setTimeout(() => {
      if (reply.sent || reply.raw.headersSent || reply.raw.destroyed) return;
      request[PASSED] = true;
      reply.send(new DeadlinePassed(ms));
    }, ms);
    reply.raw.once('close', () => clearTimeout(timer));
    done();
  });

  // The route's own answer or error, when the database finally replies after the deadline's
  // 503 went out, has nobody to go to: dropped here rather than logged as a reply sent twice.
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = async function (request: WithDeadline, reply) {
      try {
        const answer = await handler.call(this, request, reply);
        return request[PASSED] ? undefined : answer;
      } catch (err) {
        if (request[PASSED]) return undefined;
        throw err;
      }
    };
  });
}
