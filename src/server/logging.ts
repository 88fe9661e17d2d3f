import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Writable } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { TokenFailure } from './metrics.js';

/** Where and how `serve` logs (docs/operations/shared-deployment.md#logs). */
export interface LogSettings {
  /** stderr in `serve`; anything with write() in tests. */
  destination: { write(line: string): unknown };
  /** JSON lines as pino writes them, or readable lines for a terminal. */
  format: 'json' | 'text';
  /** A line per request (false with `serve --quiet`: failures and serve's own messages only). */
  requests: boolean;
  /** Colour in text lines (a terminal that supports it). */
  colour?: boolean;
  /** The lowest level written: `info` (serve's), or `debug`, which adds the lines of health probes that answer 200. */
  level?: 'debug' | 'info';
}

/**
 * 1–128 visible ASCII characters (docs/server-behaviour.md#request-ids); anything else is replaced.
 */
const REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/** A client's X-Request-Id when well-formed, else a new one: the id of every log line of the request. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

declare module 'fastify' {
  interface FastifyRequest {
    /** What the request's log line says beyond the request and its answer (refuse(), a 503's reason). */
    logNote: LogNote | null;
  }
}

/**
 * Why a request was refused, as its log line's `reason` says (docs/operations/shared-deployment.md#logs): at the token
 * endpoint, the reasons `/metrics` counts (unknown_client, wrong_secret, revoked_client,
 * rate_limited) and an HTTP Basic header that does not decode; on a bearer token, its 401s
 * and the 403 of a read token on a write.
 */
export type RefusalReason =
  | TokenFailure
  | 'malformed_credentials'
  | 'missing_token'
  | 'malformed_token'
  | 'unknown_token'
  | 'expired_token'
  | 'wrong_version'
  | 'insufficient_scope';

export interface LogNote {
  /** A refusal's RefusalReason, or why a 503 (what the database did, in words). */
  reason: string;
  /** Who was refused, when known: a client id, never a secret. */
  clientId?: string;
  /** A 401, 403 or 429 of authentication: its line is a warning, written even with --quiet. */
  refused?: boolean;
}

/** The rule of client ids (team/client-id.ts): anything else a caller sends is not logged. */
const CLIENT_ID = /^[A-Za-z0-9._@-]{1,64}$/;

/** Marks the request refused, for its log line: the reason, and the client id when known. */
export function refuse(request: FastifyRequest, reason: RefusalReason, clientId?: string): void {
  request.logNote = { reason, refused: true, ...(clientId !== undefined && CLIENT_ID.test(clientId) && { clientId }) };
}

/**
 * The warnings of an outage, at most one a second however many requests it fails: the
 * first 503 for the database is a warning of its own (under its request's id), and the 503s
 * after it are counted and told once a second, with the reason most of them had, while they
 * go on: `the database is unavailable (no answer in time): 17 requests answered 503 in the
 * last second`. `requests` on each line is the number of 503s it stands for; each request's
 * own line still has its status and reason.
 */
export class OutageWarnings {
  #timer: NodeJS.Timeout | undefined;
  readonly #counts = new Map<string, number>();

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly everyMs = 1000,
  ) {}

  /** A request answered 503 because the database is unavailable, for `reason`. */
  answered503(requestLog: FastifyBaseLogger, reason: string): void {
    if (this.#timer === undefined) {
      requestLog.warn({ reason, requests: 1 }, 'answered 503: the database is unavailable (%s)', reason);
      this.#timer = setTimeout(() => this.#tell(), this.everyMs).unref();
      return;
    }
    this.#counts.set(reason, (this.#counts.get(reason) ?? 0) + 1);
  }

  /** The server stops: what was counted is told now. */
  close(): void {
    clearTimeout(this.#timer);
    this.#tell(false);
  }

  #tell(again = true): void {
    this.#timer = undefined;
    if (this.#counts.size === 0) return; // quiet for a second: the next 503 is told at once
    const requests = [...this.#counts.values()].reduce((a, b) => a + b, 0);
    const [reason] = [...this.#counts].reduce((a, b) => (b[1] > a[1] ? b : a));
    const reasons = this.#counts.size > 1 ? { reasons: Object.fromEntries(this.#counts) } : {};
    this.#counts.clear();
    this.log.warn(
      { reason, requests, ...reasons },
      'the database is unavailable (%s): %d request%s answered 503 in the last second',
      reason,
      requests,
      requests === 1 ? '' : 's',
    );
    if (again) this.#timer = setTimeout(() => this.#tell(), this.everyMs).unref();
  }
}

/**
 * Query parameters whose values are never logged, whatever route they are sent to (none of
 * ours takes a credential in the query, but a client may send one anyway). Case-insensitive.
 */
const SECRET_PARAMS = /^(client_secret|access_token|refresh_token|id_token|token|password|secret|api_key|apikey|api-key)(\[.*\])?$/i;

/** The request's path and query, with the values of secret-looking parameters masked. */
function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of params.keys()) if (SECRET_PARAMS.test(key)) params.set(key, '[redacted]');
  return `${url.slice(0, q)}?${params.toString()}`;
}

/**
 * Fields that may hold a credential, wherever a log call puts them. The request serializer
 * below logs headers (an operator wants the user agent and the forwarded address), so the
 * Authorization header is removed here by configuration, not by remembering to leave it out.
 */
export const REDACTED_PATHS = [
  // node gives header names in lower case; pino's paths are case-sensitive
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  // the res serializer logs only the status; kept should it ever log headers
  'res.headers["set-cookie"]',
  '*.client_secret',
  '*.clientSecret',
  '*.access_token',
  '*.password',
  '*.secret',
];

/** Fastify's logger options for these settings: pino, JSON lines or readable text. */
export async function loggerOptions(settings: LogSettings): Promise<FastifyServerOptions['logger']> {
  return {
    level: settings.level ?? 'info',
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: FastifyRequest | IncomingMessage) => {
        const raw = 'raw' in req ? req.raw : req;
        return {
          method: raw.method,
          url: loggableUrl(raw.url ?? ''),
          // the client's address as --trust-proxy decides it (by default the peer's)
          remoteAddress: 'ip' in req ? req.ip : raw.socket?.remoteAddress,
          headers: { ...raw.headers },
        };
      },
      res: (res: FastifyReply | { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    stream: settings.format === 'json' ? settings.destination : await textStream(settings),
  } as FastifyServerOptions['logger'];
}

interface LogLine {
  level: number;
  msg?: string;
  reqId?: string;
  reason?: string;
  client_id?: string;
  req?: { method?: string; url?: string; remoteAddress?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { message?: string };
}

/**
 * pino-pretty formatting pino's own lines (one logging path): `GET /v2/chambers 200 1.2ms from 127.0.0.1`
 * for a request, the message for anything else; the request id at the end of each line.
 */
async function textStream(settings: LogSettings): Promise<{ write(line: string): unknown }> {
  const { default: pretty } = await import('pino-pretty');
  const d = settings.destination;
  // pino-pretty writes to a stream; a bare { write } (a test's) is made one
  const destination = 'on' in d ? (d as NodeJS.WritableStream) : new Writable({
          write(chunk, _encoding, done) {
            d.write(String(chunk));
            done();
          },
        });
  return pretty({
    destination,
    sync: true,
    colorize: settings.colour ?? false,
    translateTime: 'SYS:HH:MM:ss',
    hideObject: true,
    ignore: 'pid,hostname',
    messageFormat: (log) => {
      const l = log as unknown as LogLine;
      // a refused request: `POST /v2/auth/token 401 31.2ms from 10.0.0.9 (wrong_secret, client app)`;
      // the caller's address as the JSON line's req.remoteAddress names it
      const why = l.reason ? ` (${l.reason}${l.client_id ? `, client ${l.client_id}` : ''})` : '';
      const what = l.req && l.res && l.responseTime !== undefined
        ? `${l.req.method} ${l.req.url} ${l.res.statusCode} ${l.responseTime.toFixed(1)}ms${l.req.remoteAddress ? ` from ${l.req.remoteAddress}` : ''}${why}`
        : `${l.msg ?? ''}${l.err?.message && l.err.message !== l.msg ? `: ${l.err.message}` : ''}`;
      return l.reqId ? `${what} [${l.reqId}]` : what;
    },
  });
}
