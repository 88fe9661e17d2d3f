import { STATUS_CODES } from 'node:http';
import { CliError, ExitCode } from '../core/exit-codes.js';
import { ErrorBody, OAuthErrorBody, ValidationErrorBody, type FieldErrors } from '../contract/index.js';
import { networkErrorCode } from './retry.js';

export const LOGIN_HINT = 'run `chamberctl login`';

export function withCause(error: CliError, cause: unknown): CliError {
  error.cause = cause;
  return error;
}

/** `email: must be a valid e-mail address`, one line per message. */
export function fieldLines(fields: FieldErrors): string[] {
  return Object.entries(fields).flatMap(([field, messages]) => messages.map((m) => `${field}: ${m}`));
}

/** What the server said, from any of the error bodies of src/contract/errors.ts. */
export function serverMessage(body: unknown): { message?: string; fields: FieldErrors } {
  const validation = ValidationErrorBody.safeParse(body);
  if (validation.success) return { message: validation.data.error, fields: validation.data.fields };
  const oauth = OAuthErrorBody.safeParse(body);
  if (oauth.success) return { message: oauth.data.error_description, fields: {} };
  const plain = ErrorBody.safeParse(body);
  if (plain.success) return { message: plain.data.error, fields: {} };
  return { fields: {} };
}

export interface FailedResponse {
  status: number;
  /** The parsed JSON body, if any. */
  json: unknown;
  method: string;
  url: string;
  /** Retry-After in ms, when the server sent one. */
  retryAfterMs?: number;
  headers?: Record<string, string | string[] | undefined>;
}

/**
 * The scope a 403 says is missing (RFC 6750 section 3.1: `error="insufficient_scope"` in
 * WWW-Authenticate, with `scope="…"`, or the body's `error`); '' when it names none;
 * undefined when the 403 is not about scope.
 */
export function missingScope(res: FailedResponse): string | undefined {
  const header = [res.headers?.['www-authenticate'] ?? []].flat().join(', ');
  const inHeader = /error="insufficient_scope"/i.test(header);
  const inBody = typeof res.json === 'object' && res.json !== null && (res.json as { error?: unknown }).error === 'insufficient_scope';
  if (!inHeader && !inBody) return undefined;
  return /scope="([^"]*)"/i.exec(header)?.[1] ?? '';
}

/**
 * Whether a 400's `fields` are about the request body rather than its query: some key is
 * neither a parameter of the URL nor one of the interface's query parameters.
 */
function namesBodyFields(fields: FieldErrors, url: string): boolean {
  const sent = new URL(url).searchParams;
  const isQuery = (key: string) => sent.has(key) || /^(page|per_page|sort|include|filter\[[^\]]*\])$/.test(key);
  return Object.keys(fields).some((key) => !isQuery(key));
}

/** Maps a non-2xx answer to the exit codes of docs/manual/help-exit-codes.md. */
export function errorFromResponse(res: FailedResponse): CliError {
  const { message, fields } = serverMessage(res.json);
  const details = fieldLines(fields);
  const statusText = `HTTP ${res.status} ${STATUS_CODES[res.status] ?? ''}`.trim();
  const origin = new URL(res.url).origin;
  const said = message ?? statusText;
  switch (true) {
    case res.status === 400 && namesBodyFields(fields, res.url):
      // A server may answer a body it rejects with 400 rather than 422 (the document does
      // not fix v2's error codes): that is the user's data refused, as with 422.
      return new CliError(said, ExitCode.REJECTED, details);
    case res.status === 400:
      return new CliError(`the server rejected the request: ${said}`, ExitCode.USAGE, details);
    case res.status === 401:
      return new CliError(`authentication failed: ${said}; ${LOGIN_HINT}`, ExitCode.AUTH);
    case res.status === 403: {
      // logging in again would not help: the client itself lacks the access
      const scope = missingScope(res);
      if (scope === undefined) return new CliError(`the server refused access: ${said}; the profile's client is not allowed this`, ExitCode.AUTH);
      const named = scope || 'write';
      return new CliError(`the profile's client lacks the ${scope ? `${scope} ` : ''}scope this needs; ask for a client with ${named} scope`, ExitCode.AUTH);
    }
    case res.status === 404:
      return new CliError(message ?? `not found: ${res.method} ${res.url}`, ExitCode.NOT_FOUND);
    case res.status === 409 || res.status === 422:
      return new CliError(said, ExitCode.REJECTED, details);
    case res.status === 413:
      return new CliError(`the server rejected the request as too large: ${said}`, ExitCode.REJECTED);
    case res.status === 405:
      return new CliError(`${res.method} ${new URL(res.url).pathname} is not served by ${origin}: ${said}`, ExitCode.FAILURE);
    case res.status === 429: {
      const wait = res.retryAfterMs !== undefined ? ` (it asks to wait ${Math.ceil(res.retryAfterMs / 1000)} s)` : '';
      return new CliError(`the server at ${origin} is limiting requests${wait}; try again later`, ExitCode.FAILURE);
    }
    case res.status >= 500:
      return new CliError(
        `the server at ${origin} failed: ${statusText}${message ? ` (${message})` : ''}`,
        ExitCode.FAILURE,
      );
    default:
      return new CliError(`unexpected answer from ${res.method} ${res.url}: ${statusText}`, ExitCode.FAILURE, details);
  }
}

/** One sentence naming the server, e.g. `cannot reach http://127.0.0.1:8080: connection refused`. */
export function networkError(
  err: unknown,
  req: { method: string; url: string; idempotent: boolean },
  timeouts: { connectMs: number; headersMs: number },
): CliError {
  const origin = new URL(req.url).origin;
  const code = networkErrorCode(err);
  const maybeApplied = req.idempotent ? '' : '; the request may or may not have been applied';
  const reasons: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host name lookup failed',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    UND_ERR_CONNECT_TIMEOUT: `no connection within ${timeouts.connectMs / 1000} s`,
  };
  let text: string;
  if (code && reasons[code]) {
    text = `cannot reach ${origin}: ${reasons[code]}`;
  } else if (code === 'UND_ERR_HEADERS_TIMEOUT') {
    text = `no answer from ${origin} within ${timeouts.headersMs / 1000} s${maybeApplied}`;
  } else if (code === 'UND_ERR_BODY_TIMEOUT') {
    text = `the answer from ${origin} stalled${maybeApplied}`;
  } else if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE') {
    text = `the connection to ${origin} was closed before an answer came${maybeApplied}`;
  } else {
    const why = err instanceof Error ? err.message : String(err);
    text = `request to ${origin} failed: ${why}${maybeApplied}`;
  }
  return withCause(new CliError(text, ExitCode.FAILURE), err);
}
