import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isUnavailable } from '../storage/unavailable.js';
import { BadBody } from './body-parsers.js';
import { DeadlinePassed, REQUEST_DEADLINE_MS } from './deadline.js';
import { sendError, sendNoSuchPath, sendOAuthError } from './errors.js';
import type { OutageWarnings } from './logging.js';

// Every error answers in JSON, whoever raises it: node's parser (answerClientError), the
// router (answerFrameworkError), a route or hook (the error handler), or no route at all.

/**
 * Requests node's parser rejects (a header over 16 KiB, malformed syntax) never reach
 * Fastify: answered here, in JSON like every other error, then the connection closes.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, error] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'the request headers are larger than 16 KiB']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'the request took too long to arrive']
        : [400, 'the request is not valid HTTP'];
  if (socket.writable) socket.write(rawJsonResponse(status, { error }));
  socket.destroy();
}

/**
 * Errors the router raises before any route (a malformed %-escape in the path) get the same
 * JSON body as every other error.
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
  return sendError(reply, status, status === 414 ? 'the path is too long' : 'the path is not a valid URL path');
}

/** The error handler and the 404 of a path no route has; 503s of the database counted by `outage`. */
export function useErrorHandler(app: FastifyInstance, outage: OutageWarnings): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    let status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    let message: string;
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      status = 413;
      message = `the request body is larger than ${sizeText(request.routeOptions.bodyLimit)}`;
      // Fastify asks to close the connection, as the client is still sending: lingering-close.ts
      // reads the rest instead, so that the client reads this answer
      reply.removeHeader('connection');
    } else if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      // answered before the body is read (docs/server-behaviour.md#requests)
      status = 415;
      message = request.routeOptions.url?.endsWith('/auth/token')
        ? 'the request body must be JSON or form-encoded (Content-Type: application/json or application/x-www-form-urlencoded)'
        : 'the request body must be JSON (Content-Type: application/json)';
    } else if (err instanceof BadBody) {
      message = err.message;
    } else if (isUnavailable(err) || err instanceof DeadlinePassed) {
      if (!request.raw.complete) {
        // the deadline passed while the client was still sending its body: nothing of ours was slow
        request.log.warn('the request body did not arrive within %d s', REQUEST_DEADLINE_MS / 1000);
        return sendError(reply.header('connection', 'close'), 408, 'the request took too long to arrive');
      }
      // The database went away (a restart, a failover) or is too slow: say so, and the client retries.
      const reason = isUnavailable(err) ? err.reason : err.message;
      request.logNote = { reason };
      outage.answered503(request.log, reason);
      reply.header('Retry-After', '1');
      return sendError(reply, 503, 'the database is unavailable; try again shortly');
    } else if (request.raw.aborted || err.code === 'ECONNRESET') {
      // the client went away mid-request (its own socket error, not ours): nobody to answer
      request.log.info('the client closed the connection before the request was complete');
      return reply;
    } else if (status < 500) {
      message = `bad request (${err.code ?? 'invalid'})`;
    } else {
      message = 'internal server error';
      request.log.error({ err }, 'answered 500: %s', err.message);
    }
    if (status < 500 && request.routeOptions.url?.endsWith('/auth/token')) {
      return sendOAuthError(reply, status, 'invalid_request', message); // never cached, OAuth-shaped
    }
    return sendError(reply, status, message);
  });

  // request-gate.ts answers these first, before any body is read; this is the backstop
  app.setNotFoundHandler(async (_request, reply) => sendNoSuchPath(reply));
}

/** A body limit as the 413 names it: `1 MiB`, `4 KiB`. */
function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
}

/** A whole HTTP/1.1 response with a JSON body, for the socket-level error paths. */
function rawJsonResponse(status: number, body: object): string {
  const json = JSON.stringify(body);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`;
}
