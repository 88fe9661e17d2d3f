import type { FastifyInstance } from 'fastify';
import type { HealthUnavailable } from '../contract/index.js';
import { sendError, sendNoSuchPath } from './errors.js';

/**
 * What every request meets first: its X-Request-Id echoed; while the server drains before it
 * stops, readiness 503 and everything else served, with `Connection: close`; while it stops, a
 * 503 with `Connection: close` (readiness in its own shape, liveness still 200); a 400 for an HTTP/1.1
 * request without Host; a 404 for a path no route serves, before its body is read; and a 417
 * in JSON for an Expect other than 100-continue.
 */
export function useRequestGate(app: FastifyInstance, isClosing: () => boolean, isDraining: () => boolean = () => false): void {
  // An Expect other than 100-continue: node would answer 417 with an empty body.
  app.server.on('checkExpectation', (req, res) => {
    const body = JSON.stringify({ error: `the expectation ${JSON.stringify(req.headers.expect ?? '')} cannot be met; only 100-continue is supported` });
    res.writeHead(417, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
    res.end(body);
  });
  // A hook with `done` rather than an async one: no promise and no microtask per request. It
  // answers by sending, and then does not call `done` (Fastify's way for such a hook).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (isDraining() && !isClosing()) {
      // a keep-alive connection ends with this answer, so the balancer's next request opens
      // one to an instance it still thinks ready
      reply.header('connection', 'close');
      if (request.routeOptions.url === '/healthz') {
        const body: HealthUnavailable = { status: 'unavailable', error: 'the server is stopping (draining: requests are still served)' };
        reply.code(503).header('retry-after', '1').type('application/json; charset=utf-8').send(body);
        return;
      }
    } else if (isClosing()) {
      reply.header('connection', 'close');
      const route = request.routeOptions.url;
      if (route === '/livez') return done(); // the process still runs: liveness is unchanged
      reply.header('retry-after', '1');
      if (route === '/healthz') {
        // readiness in its own shape, so that a load balancer reads it as out of rotation
        const body: HealthUnavailable = { status: 'unavailable', error: 'the server is shutting down' };
        reply.code(503).type('application/json; charset=utf-8').send(body);
        return;
      }
      sendError(reply, 503, 'the server is shutting down; try again (another instance may answer)');
      return;
    }
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      reply.header('connection', 'close');
      sendError(reply, 400, 'an HTTP/1.1 request must have a Host header');
      return;
    }
    // A path no route serves: its 404 now, before any body is read (no parser, no body limit).
    if (request.is404) {
      sendNoSuchPath(reply);
      return;
    }
    done();
  });
}
