import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../../src/core/exit-codes.js';
import { httpClientFor } from '../../src/client/create-http.js';
import { HttpClient, type HttpClientOptions } from '../../src/client/http.js';
import { USER_AGENT } from '../../src/client/user-agent.js';
import { fakeContext } from '../helpers/fake-context.js';

// A throwaway HTTP server that answers each request with the next scripted behaviour. It
// stands in for flaky infrastructure (proxies, overloaded servers), not for our API.
type Step = { status: number; headers?: Record<string, string>; body?: string } | 'reset' | 'hang';

let server: Server;
let origin: string;
let script: Step[];
let seen: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }>;
let connections: number;

beforeEach(async () => {
  script = [];
  seen = [];
  connections = 0;
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += String(c)));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const step = script.shift() ?? { status: 200, body: '{"ok":true}' };
      if (step === 'reset') return req.socket.destroy();
      if (step === 'hang') return;
      res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers });
      res.end(step.body ?? '{}');
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A client that records its sleeps instead of waiting. */
function client(opts: HttpClientOptions = {}) {
  const sleeps: number[] = [];
  const log: string[] = [];
  const http = new HttpClient({
    sleep: async (ms) => void sleeps.push(ms),
    random: () => 0.5,
    log: (line) => void log.push(line),
    ...opts,
  });
  return { http, sleeps, log };
}

describe('retries of GET', () => {
  it('repeats on 502, 503, 504 and 429 with full-jitter backoff, then returns the answer', async () => {
    script = [{ status: 503 }, { status: 502 }, { status: 504 }];
    const { http, sleeps } = client({ retry: { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 10_000 } });
    const res = await http.request({ method: 'GET', url: `${origin}/v1/chambers` });
    await http.close();
    expect(res.status).toBe(200);
    expect(seen).toHaveLength(4);
    // random() = 0.5 → half of 100, 200, 400
    expect(sleeps).toEqual([50, 100, 200]);
  });

  it('gives up after maxAttempts and returns the last answer', async () => {
    script = [{ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }];
    const { http, sleeps } = client({ retry: { maxAttempts: 3 } });
    const res = await http.request({ method: 'GET', url: `${origin}/x` });
    await http.close();
    expect(res.status).toBe(503);
    expect(seen).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
  });

  it('does not repeat other errors (500, 404)', async () => {
    script = [{ status: 500 }];
    const { http, sleeps } = client();
    expect((await http.request({ method: 'GET', url: `${origin}/x` })).status).toBe(500);
    await http.close();
    expect(seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('waits as long as Retry-After says, in seconds', async () => {
    script = [{ status: 429, headers: { 'retry-after': '2' } }];
    const { http, sleeps } = client();
    expect((await http.request({ method: 'GET', url: `${origin}/x` })).status).toBe(200);
    await http.close();
    expect(sleeps).toEqual([2_000]);
  });

  it('waits until a Retry-After date, by the injected clock', async () => {
    const now = Date.parse('2026-03-01T10:00:00Z');
    script = [{ status: 503, headers: { 'retry-after': 'Sun, 01 Mar 2026 10:00:07 GMT' } }];
    const { http, sleeps } = client({ clock: () => now });
    expect((await http.request({ method: 'GET', url: `${origin}/x` })).status).toBe(200);
    await http.close();
    expect(sleeps).toEqual([7_000]);
  });

  it('stops at once when Retry-After is longer than the cap', async () => {
    script = [{ status: 429, headers: { 'retry-after': '3600' } }];
    const { http, sleeps } = client({ retry: { maxRetryAfterMs: 30_000 } });
    const res = await http.request({ method: 'GET', url: `${origin}/x` });
    await http.close();
    expect(res.status).toBe(429);
    expect(res.retryAfterMs).toBe(3_600_000);
    expect(seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('repeats after the connection was reset', async () => {
    script = ['reset'];
    const { http, sleeps } = client();
    expect((await http.request({ method: 'GET', url: `${origin}/x` })).status).toBe(200);
    await http.close();
    expect(seen).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  it('fails with one sentence when no answer comes in time', async () => {
    script = ['hang'];
    const { http } = client({ requestTimeoutMs: 200, retry: { maxAttempts: 1 } });
    const err = await http.request({ method: 'GET', url: `${origin}/x` }).catch((e: unknown) => e);
    await http.close();
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).message).toBe(`no answer from ${origin} within 0.2 s`);
  });
});

describe('retries of POST', () => {
  it('never repeats a POST that reached the server, even when the connection broke', async () => {
    script = ['reset'];
    const { http, sleeps } = client();
    const err = await http
      .request({ method: 'POST', url: `${origin}/v2/chambers/c/members`, json: { name: 'A' } })
      .catch((e: unknown) => e);
    await http.close();
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(ExitCode.FAILURE);
    expect((err as CliError).message).toContain('may or may not have been applied');
    expect(seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('does not repeat a POST on 503 or 429', async () => {
    script = [{ status: 503 }, { status: 429 }];
    const { http } = client();
    expect((await http.request({ method: 'POST', url: `${origin}/p`, json: {} })).status).toBe(503);
    expect((await http.request({ method: 'POST', url: `${origin}/p`, json: {} })).status).toBe(429);
    await http.close();
    expect(seen).toHaveLength(2);
  });

  it('repeats a POST whose connection was refused (it never left), then names the URL', async () => {
    const closed = origin;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    server.listen(0, '127.0.0.1'); // for afterEach
    const { http, sleeps } = client({ retry: { maxAttempts: 3 } });
    const err = await http.request({ method: 'POST', url: `${closed}/p`, json: {} }).catch((e: unknown) => e);
    await http.close();
    expect((err as CliError).message).toBe(`cannot reach ${closed}: connection refused`);
    expect(sleeps).toHaveLength(2);
  });

  it('repeats the token request like a GET when told it is idempotent', async () => {
    script = [{ status: 503 }];
    const { http } = client();
    const res = await http.request({ method: 'POST', url: `${origin}/v2/auth/token`, json: {}, idempotent: true });
    await http.close();
    expect(res.status).toBe(200);
    expect(seen).toHaveLength(2);
  });
});

describe('connections and headers', () => {
  it('reuses keep-alive connections (one pool per origin)', async () => {
    const { http } = client();
    for (let i = 0; i < 5; i++) await http.request({ method: 'GET', url: `${origin}/x?i=${i}` });
    await http.close();
    expect(seen.map((s) => s.url)).toEqual(['/x?i=0', '/x?i=1', '/x?i=2', '/x?i=3', '/x?i=4']);
    // undici may open a second socket when a request is queued just as the first frees up
    expect(connections).toBeLessThanOrEqual(2);
  });

  it('sends User-Agent, Accept and a JSON body', async () => {
    const { http } = client();
    await http.request({ method: 'POST', url: `${origin}/p`, json: { a: 1 } });
    await http.close();
    expect(USER_AGENT).toMatch(/^chamberctl\/\S+$/);
    expect(seen[0]?.headers['user-agent']).toBe(USER_AGENT);
    expect(seen[0]?.headers.accept).toBe('application/json');
    expect(seen[0]?.headers['content-type']).toBe('application/json');
    expect(seen[0]?.body).toBe('{"a":1}');
  });

  it('parses JSON answers and keeps the text', async () => {
    script = [{ status: 404, body: '{"error":"chamber not found"}' }];
    const { http } = client();
    const res = await http.request({ method: 'GET', url: `${origin}/x` });
    await http.close();
    expect(res.json).toEqual({ error: 'chamber not found' });
    expect(res.text).toBe('{"error":"chamber not found"}');
  });
});

describe('--verbose log', () => {
  it('shows method, URL, status and time, with secrets and tokens redacted', async () => {
    const secret = 'Sup3rS3cretValue';
    const token = 'tok_abcdefghijklmnop';
    script = [{ status: 200, body: JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 3600 }) }];
    const { http, log } = client();
    http.addSecret(secret);
    await http.request({
      method: 'POST',
      url: `${origin}/v2/auth/token`,
      json: { grant_type: 'client_credentials', client_id: 'ci', client_secret: secret },
    });
    script = [{ status: 200, body: JSON.stringify({ echo: `x-${secret}-y` }) }];
    await http.request({ method: 'GET', url: `${origin}/v2/chambers`, headers: { authorization: `Bearer ${token}` } });
    await http.close();
    const text = log.join('\n');
    expect(text).toContain(`> POST ${origin}/v2/auth/token`);
    expect(text).toContain(`> GET ${origin}/v2/chambers`);
    expect(text).toMatch(/< 200 OK \(\d+ ms\)/);
    expect(text).toContain('> authorization: Bearer [redacted]');
    expect(text).toContain('"client_secret":"[redacted]"');
    expect(text).toContain('"access_token":"[redacted]"');
    expect(text).toContain('x-[redacted]-y');
    expect(text).not.toContain(secret);
    expect(text).not.toContain(token);
  });

  it('writes to stderr with --verbose only', async () => {
    for (const verbose of [false, true]) {
      const ctx = fakeContext();
      const http = httpClientFor({ verbose }, ctx);
      await http.request({ method: 'GET', url: `${origin}/x` });
      await http.close();
      expect(ctx.err() !== '', `verbose: ${verbose}`).toBe(verbose);
      expect(ctx.out()).toBe('');
    }
  });
});
