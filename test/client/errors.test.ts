import { describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../../src/core/exit-codes.js';
import { errorFromResponse, networkError } from '../../src/client/errors.js';

const at = (status: number, json: unknown, method = 'GET') => ({
  status,
  json,
  method,
  url: 'http://127.0.0.1:8080/v2/chambers/ch_1/members',
});

describe('errorFromResponse maps statuses to the documented exit codes (chamberctl help exit-codes)', () => {
  it('401 → 3 with a hint to log in', () => {
    const e = errorFromResponse(at(401, { error: 'invalid_token', error_description: 'the token expired' }));
    expect(e.exitCode).toBe(ExitCode.AUTH);
    expect(e.message).toBe('authentication failed: the token expired; run `chamberctl login`');
  });

  it('403 → 3: the missing scope from RFC 6750\'s header or body, and what to do; any other 403 says the client is not allowed', () => {
    const ours = errorFromResponse({
      ...at(403, { error: 'insufficient_scope', error_description: 'this request needs the write scope; the token has read' }, 'POST'),
      headers: { 'www-authenticate': 'Bearer error="insufficient_scope", scope="write"' },
    });
    expect(ours.exitCode).toBe(ExitCode.AUTH);
    expect(ours.message).toBe("the profile's client lacks the write scope this needs; ask for a client with write scope");
    // another server: the header alone, with a scope of its own
    const header = errorFromResponse({ ...at(403, undefined, 'POST'), headers: { 'www-authenticate': 'Bearer realm="x", error="insufficient_scope", scope="members:write"' } });
    expect(header.message).toBe("the profile's client lacks the members:write scope this needs; ask for a client with members:write scope");
    // the body alone, no scope named
    const body = errorFromResponse(at(403, { error: 'insufficient_scope' }, 'POST'));
    expect(body.message).toBe("the profile's client lacks the scope this needs; ask for a client with write scope");
    const other = errorFromResponse(at(403, { error: 'forbidden by policy' }));
    expect(other.exitCode).toBe(ExitCode.AUTH);
    expect(other.message).toBe("the server refused access: forbidden by policy; the profile's client is not allowed this");
  });

  it('404 → 4 with the server message', () => {
    const e = errorFromResponse(at(404, { error: 'chamber ch_1 not found' }));
    expect(e.exitCode).toBe(ExitCode.NOT_FOUND);
    expect(e.message).toBe('chamber ch_1 not found');
  });

  it('422 and 409 → 5 with the field messages as detail lines', () => {
    const e = errorFromResponse(
      at(422, { error: 'validation failed', fields: { email: ['must be a valid e-mail address'], name: ['is required', 'x'] } }, 'POST'),
    );
    expect(e.exitCode).toBe(ExitCode.REJECTED);
    expect(e.message).toBe('validation failed');
    expect(e.details).toEqual(['email: must be a valid e-mail address', 'name: is required', 'name: x']);
    const dup = errorFromResponse(at(409, { error: 'duplicate', fields: { email: ['is already a member'] } }, 'POST'));
    expect(dup.exitCode).toBe(ExitCode.REJECTED);
    expect(dup.details).toEqual(['email: is already a member']);
  });

  it('400 → 2, with the parameter messages', () => {
    const e = errorFromResponse(at(400, { error: 'invalid query', fields: { 'filter[status]': ['must be one of: a, b'] } }));
    expect(e.exitCode).toBe(ExitCode.USAGE);
    expect(e.details).toEqual(['filter[status]: must be one of: a, b']);
  });

  it('400 whose fields name body fields → 5, as a 422 would; a 400 about the query stays 2', () => {
    const body = errorFromResponse(
      at(400, { error: 'The given data was invalid.', fields: { email: ['The email must be a valid email address.'], 'address.city': ['required'] } }, 'POST'),
    );
    expect(body.exitCode).toBe(ExitCode.REJECTED);
    expect(body.message).toBe('The given data was invalid.');
    expect(body.details).toEqual(['email: The email must be a valid email address.', 'address.city: required']);
    const query = errorFromResponse({ ...at(400, { error: 'bad', fields: { page: ['must be an integer'] } }), url: 'http://h/v2/chambers?page=x' });
    expect(query.exitCode).toBe(ExitCode.USAGE);
    const plain = errorFromResponse(at(400, { error: 'the body is not JSON' }, 'POST'));
    expect(plain.exitCode).toBe(ExitCode.USAGE);
  });

  it('5xx and unexpected statuses → 1, naming the server', () => {
    const e = errorFromResponse(at(503, undefined));
    expect(e.exitCode).toBe(ExitCode.FAILURE);
    expect(e.message).toBe('the server at http://127.0.0.1:8080 failed: HTTP 503 Service Unavailable');
    expect(errorFromResponse(at(418, undefined)).exitCode).toBe(ExitCode.FAILURE);
  });
});

describe('networkError', () => {
  const req = { method: 'GET', url: 'http://127.0.0.1:8080/v1/chambers', idempotent: true };
  const timeouts = { connectMs: 10_000, headersMs: 30_000 };
  const err = (code: string) => Object.assign(new Error(`x ${code}`), { code });

  it('is one sentence naming the URL', () => {
    const e = networkError(err('ECONNREFUSED'), req, timeouts);
    expect(e).toBeInstanceOf(CliError);
    expect(e.exitCode).toBe(ExitCode.FAILURE);
    expect(e.message).toBe('cannot reach http://127.0.0.1:8080: connection refused');
  });

  it('warns that a POST cut off after sending may have been applied', () => {
    const e = networkError(err('UND_ERR_SOCKET'), { ...req, method: 'POST', idempotent: false }, timeouts);
    expect(e.message).toBe(
      'the connection to http://127.0.0.1:8080 was closed before an answer came; the request may or may not have been applied',
    );
  });

  it('names the timeout', () => {
    expect(networkError(err('UND_ERR_HEADERS_TIMEOUT'), req, timeouts).message).toBe(
      'no answer from http://127.0.0.1:8080 within 30 s',
    );
  });
});
