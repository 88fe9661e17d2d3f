import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

// An answer sent before the request's body has all arrived (a 401 for an expired token, a
// 404, 405, 413 or 415, each decided before the body is read) must still reach a client
// that writes its whole body before it reads. Closing the socket while the client still
// sends makes the kernel answer its data with a reset, which discards the answer unread on
// the client's side (EPIPE or ECONNRESET there). So, as Go's net/http (closeWriteAndWait,
// maxPostHandlerReadBytes) and nginx (lingering_close, lingering_time) do, the rest of the
// body is read and discarded, within bounds (docs/server-behaviour.md#limits): the answer
// leaves at once on a connection that stays open; when the body ends within the bounds the
// connection is reusable as usual, past them it is closed.

/** At most this much of a refused body is read and discarded after the answer... */
export const LINGER_MAX_BYTES = 4 * 1024 * 1024;
/** ...for at most this long; then the connection is closed. */
export const LINGER_MAX_MS = 5_000;

/** Whether the request announced a body (a length above 0, or chunks). */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * For an answer about to be sent before `req`'s body has all arrived: reads and discards the
 * rest of the body; past the bounds, closes the connection. Nothing for a complete request.
 */
export function discardRestOf(req: IncomingMessage): void {
  if (!req.complete && hasBody(req)) discardRest(req);
}

function discardRest(req: IncomingMessage): void {
  let read = 0;
  const socket = req.socket;
  const stop = () => {
    clearTimeout(timer);
    req.off('data', count);
    req.off('end', stop);
    req.off('close', stop);
  };
  const cut = () => {
    stop();
    socket.destroy();
  };
  const count = (chunk: Buffer) => {
    read += chunk.length;
    if (read > LINGER_MAX_BYTES) cut();
  };
  const timer = setTimeout(cut, LINGER_MAX_MS);
  req.on('data', count); // also what makes the body flow, to nobody
  req.once('end', stop);
  req.once('close', stop);
}

/**
 * Answers sent before their request's body has arrived keep the connection open while the
 * rest of the body is read and discarded, within LINGER_MAX_BYTES and LINGER_MAX_MS. An
 * answer that closes the connection on purpose (`Connection: close`: the server stopping, a
 * request without Host, the deadline of a body that is too slow) or a client that asked for
 * that is left as it is: node closes such a connection after the answer.
 */
export function lingerAfterEarlyAnswers(app: FastifyInstance): void {
  // with `done` rather than async: no promise and no microtask per answer
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.getHeader('connection') === undefined) discardRestOf(request.raw);
    done(null, payload);
  });
}
