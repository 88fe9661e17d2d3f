// The sender's decisions, with a scripted transport in place of the network (what the real
// server answers is covered end to end in test/e2e/import*.test.ts).
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/core/exit-codes.js';
import type { HttpClient, HttpRequest, HttpResponse } from '../../src/client/http.js';
import { TokenProvider } from '../../src/client/tokens.js';
import { FatalSendError, IMPORT_RETRY, RowSender, rowKey } from '../../src/import/sender.js';

type Step = { status: number; json?: unknown; retryAfterMs?: number; headers?: Record<string, string> } | Error;

/**
 * A scripted transport: token requests are answered tok1, tok2, ... (or 401 once `refuseCredentials`);
 * every other request takes the next step. The sender runs with a real TokenProvider over it.
 */
function scripted(steps: Step[], opts: { refuseCredentials?: boolean } = {}) {
  const requests: HttpRequest[] = [];
  let issued = 0;
  const http = {
    addSecret: () => undefined,
    async request(req: HttpRequest): Promise<HttpResponse> {
      const base = { headers: {}, text: '', url: req.url, method: req.method };
      if (req.url.endsWith('/auth/token')) {
        if (opts.refuseCredentials) return { ...base, status: 401, json: { error: 'invalid_client', error_description: 'no' } };
        return { ...base, status: 200, json: { access_token: `tok${++issued}`, token_type: 'Bearer', expires_in: 3600 } };
      }
      requests.push(req);
      const step = steps.shift();
      if (!step) throw new Error('no more scripted answers');
      if (step instanceof Error) throw step;
      return { ...base, json: undefined, ...step };
    },
  } as unknown as HttpClient;
  const sleeps: number[] = [];
  const tokens = new TokenProvider({
    http,
    baseUrl: 'http://127.0.0.1:9',
    credentials: { clientId: 'c', clientSecret: 's' },
    cache: { load: () => undefined, save: () => undefined },
    now: () => new Date('2026-01-01T00:00:00Z'),
  });
  const sender = new RowSender({
    http,
    tokens,
    baseUrl: 'http://127.0.0.1:9',
    chamberId: 'ch/1',
    sleep: async (ms) => void sleeps.push(ms),
    random: () => 0.5,
  });
  return { sender, requests, sleeps, issued: () => issued };
}

const body = { name: 'Ada', email: 'ada@example.org', phone: null, membership_type: 'standard' as const };

describe('RowSender', () => {
  it('POSTs the body to the chamber (v2, path-encoded) with the bearer token: 201 is created', async () => {
    const s = scripted([{ status: 201 }]);
    expect(await s.sender.send(body, 2)).toEqual({ status: 'created' });
    expect(s.requests).toEqual([
      {
        method: 'POST',
        url: 'http://127.0.0.1:9/v2/chambers/ch%2F1/members',
        headers: { authorization: 'Bearer tok1', 'idempotency-key': rowKey('ch/1', body) },
        json: body,
        idempotent: true,
      },
    ]);
  });

  it('derives the Idempotency-Key from the chamber and the row; an answer replayed for it is a skipped row', async () => {
    expect(rowKey('ch/1', body)).toBe(rowKey('ch/1', { ...body }));
    expect(rowKey('ch/1', body)).not.toBe(rowKey('ch/2', body));
    expect(rowKey('ch/1', body)).not.toBe(rowKey('ch/1', { ...body, name: `${body.name}!` }));
    expect(rowKey('ch/1', body)).toMatch(/^import-[\w-]{43}$/);
    const replayed = scripted([{ status: 201, headers: { 'idempotent-replayed': 'true' } }]);
    expect(await replayed.sender.send(body, 2)).toEqual({ status: 'skipped' });
  });

  it('409 is skipped; 422, or 400 naming fields, is invalid with the server field messages', async () => {
    expect(await scripted([{ status: 409 }]).sender.send(body, 2)).toEqual({ status: 'skipped' });
    const r = await scripted([{ status: 422, json: { error: 'validation failed', fields: { email: ['is odd'] } } }]).sender.send(body, 2);
    expect(r).toEqual({ status: 'invalid', reason: 'the server rejected it: email: is odd' });
    // a server that answers validation failures with 400 + fields, and success with 200
    const r400 = await scripted([{ status: 400, json: { error: 'invalid', fields: { name: ['is required'] } } }]).sender.send(body, 2);
    expect(r400).toEqual({ status: 'invalid', reason: 'the server rejected it: name: is required' });
    expect(await scripted([{ status: 200 }]).sender.send(body, 2)).toEqual({ status: 'created' });
  });

  it('network errors, 429 and 5xx are retried with backoff; a POST that landed before the drop comes back 409 = skipped', async () => {
    const reset = Object.assign(new Error('the connection was closed before an answer came'), { code: 'ECONNRESET' });
    const s = scripted([{ status: 503 }, reset, { status: 500 }, { status: 429 }, { status: 409 }]);
    expect(await s.sender.send(body, 2)).toEqual({ status: 'skipped' });
    expect(s.requests).toHaveLength(5);
    // full jitter with random() = 0.5: half of 250, 500, 1000, 2000
    expect(s.sleeps).toEqual([125, 250, 500, 1000]);
  });

  it('obeys Retry-After, and gives up at once on one longer than a minute', async () => {
    const s = scripted([{ status: 503, retryAfterMs: 3000 }, { status: 201 }]);
    expect(await s.sender.send(body, 2)).toEqual({ status: 'created' });
    expect(s.sleeps).toEqual([3000]);
    const long = scripted([{ status: 429, retryAfterMs: 120_000 }]);
    const r = await long.sender.send(body, 2);
    expect(r.status).toBe('failed');
    expect(long.requests).toHaveLength(1);
  });

  it('fails the row after the last attempt, with the reason', async () => {
    const s = scripted(Array.from({ length: IMPORT_RETRY.maxAttempts }, () => ({ status: 502 })));
    const r = await s.sender.send(body, 2);
    expect(r).toEqual({ status: 'failed', reason: 'the server at http://127.0.0.1:9 failed: HTTP 502 Bad Gateway' });
    expect(s.requests).toHaveLength(IMPORT_RETRY.maxAttempts);
  });

  it('an answer that is not retried (400, 413) fails the row at once', async () => {
    const s = scripted([{ status: 413, json: { error: 'too large' } }]);
    expect(await s.sender.send(body, 2)).toEqual({ status: 'failed', reason: 'the server rejected the request as too large: too large' });
  });

  it('401 for a token that had worked: a new token and the same request, as often as the server revokes', async () => {
    const s = scripted([{ status: 201 }, { status: 401 }, { status: 201 }, { status: 401 }, { status: 201 }]);
    for (let i = 0; i < 3; i++) expect(await s.sender.send(body, 2 + i)).toEqual({ status: 'created' });
    expect(s.requests.map((r) => r.headers?.authorization)).toEqual([
      'Bearer tok1',
      'Bearer tok1',
      'Bearer tok2',
      'Bearer tok2',
      'Bearer tok3',
    ]);
  });

  it('a token refused right after it was issued ends the import (exit 3), without asking again', async () => {
    const s = scripted([{ status: 401 }, { status: 401 }, { status: 201 }]);
    const err = await s.sender.send(body, 2).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FatalSendError);
    expect((err as FatalSendError).error.exitCode).toBe(ExitCode.AUTH);
    expect(s.issued()).toBe(1);
    expect(s.requests).toHaveLength(1);
  });

  it('credentials the token endpoint refuses end the import (exit 3)', async () => {
    const err = await scripted([{ status: 201 }], { refuseCredentials: true }).sender.send(body, 2).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FatalSendError);
    expect((err as FatalSendError).error.exitCode).toBe(ExitCode.AUTH);
  });

  it('404 (the chamber is gone) ends the import (exit 4)', async () => {
    const err = await scripted([{ status: 404, json: { error: 'chamber "x" was not found' } }]).sender.send(body, 2).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FatalSendError);
    expect((err as FatalSendError).error.exitCode).toBe(ExitCode.NOT_FOUND);
    expect((err as FatalSendError).message).toBe('chamber "x" was not found');
  });
});
