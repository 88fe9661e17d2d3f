// The sender's decisions, with a scripted transport in place of the network (what the real
// server answers is covered end to end in test/e2e/import*.test.ts).
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/exit-codes.js';
import type { HttpClient, HttpRequest, HttpResponse } from '../../src/client/http.js';
import { FatalSendError, IMPORT_RETRY, RowSender } from '../../src/import/sender.js';

type Step = { status: number; json?: unknown; retryAfterMs?: number } | Error;

function scripted(steps: Step[]) {
  const requests: HttpRequest[] = [];
  const http = {
    addSecret: () => undefined,
    async request(req: HttpRequest): Promise<HttpResponse> {
      requests.push(req);
      const step = steps.shift();
      if (!step) throw new Error('no more scripted answers');
      if (step instanceof Error) throw step;
      return { headers: {}, text: '', url: req.url, method: req.method, json: undefined, ...step };
    },
  } as unknown as HttpClient;
  const sleeps: number[] = [];
  const renewals: string[] = [];
  const sender = new RowSender({
    http,
    tokens: {
      token: async () => 'tok1',
      renew: async (_v, rejected) => {
        renewals.push(rejected);
        return rejected === 'tok1' ? 'tok2' : undefined;
      },
    },
    baseUrl: 'http://127.0.0.1:9',
    chamberId: 'ch/1',
    sleep: async (ms) => void sleeps.push(ms),
    random: () => 0.5,
  });
  return { sender, requests, sleeps, renewals };
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
        headers: { authorization: 'Bearer tok1' },
        json: body,
        idempotent: true,
      },
    ]);
  });

  it('409 is skipped, 422 is invalid with the server field messages', async () => {
    expect(await scripted([{ status: 409 }]).sender.send(body, 2)).toEqual({ status: 'skipped' });
    const r = await scripted([{ status: 422, json: { error: 'validation failed', fields: { email: ['is odd'] } } }]).sender.send(body, 2);
    expect(r).toEqual({ status: 'invalid', reason: 'the server rejected it: email: is odd' });
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

  it('401: one new token and the same request; a second 401 ends the import (exit 3)', async () => {
    const s = scripted([{ status: 401 }, { status: 201 }]);
    expect(await s.sender.send(body, 2)).toEqual({ status: 'created' });
    expect(s.requests.map((r) => r.headers?.authorization)).toEqual(['Bearer tok1', 'Bearer tok2']);
    const twice = scripted([{ status: 401 }, { status: 401 }]);
    const err = await twice.sender.send(body, 2).catch((e: unknown) => e);
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
