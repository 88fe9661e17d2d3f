import { STATUS_CODES } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { Dispatcher } from './undici/index.js';
import { directPool, proxyAgent, proxyFor, usesProxy, type ProxyEnv } from './dispatcher.js';
import { networkError } from './errors.js';
import { REDACTED, redactBody, redactHeader } from './redact.js';
import {
  DEFAULT_RETRY,
  RETRYABLE_STATUSES,
  backoffDelay,
  networkErrorCode,
  neverReachedServer,
  parseRetryAfter,
  type RetryPolicy,
} from './retry.js';
import { USER_AGENT } from './user-agent.js';

export interface HttpRequest {
  /** GET and POST for the resource commands; any method for `chamberctl api`. */
  method: 'GET' | 'POST' | (string & {});
  url: string;
  headers?: Record<string, string>;
  /** Sent as a JSON body. */
  json?: unknown;
  /**
   * Safe to repeat after it reached the server. Defaults to true for GET; a POST is
   * otherwise repeated only when it surely never left this machine.
   */
  idempotent?: boolean;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: unknown;
  url: string;
  method: string;
  /** Retry-After in ms, when sent. */
  retryAfterMs?: number;
}

export interface HttpClientOptions {
  userAgent?: string;
  /** Receives the --verbose lines (already redacted); absent means quiet. */
  log?: (line: string) => void;
  connectTimeoutMs?: number;
  /** Time allowed for the response headers, then for each pause in the body. */
  requestTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Wall clock in ms, for Retry-After dates. */
  clock?: () => number;
  /** Proxies from the environment (src/client/dispatcher.ts); none: straight to the server. */
  proxy?: ProxyEnv;
  /** Told before each wait for a retry, so that a spinner can say why nothing has come yet. */
  onRetry?: (notice: RetryNotice) => void;
}

/** A retry about to happen: attempt `attempt` of `of`, after `reason` (`503`, `ECONNRESET`), in `waitMs`. */
export interface RetryNotice {
  attempt: number;
  of: number;
  reason: string;
  waitMs: number;
}

/**
 * HTTP/1.1 with one keep-alive pool per origin, timeouts, retries with backoff and
 * `--verbose` logging with secrets redacted. Answers of any status are returned; only
 * network failures (after the retries) throw, as a CliError.
 */
export class HttpClient {
  readonly #pools = new Map<string, Dispatcher>();
  #proxied: Dispatcher | undefined;
  readonly #secrets = new Set<string>();
  readonly #opts: Required<Omit<HttpClientOptions, 'log' | 'retry' | 'proxy' | 'onRetry'>> & {
    log?: (line: string) => void;
    retry: RetryPolicy;
    proxy?: ProxyEnv;
    onRetry?: (notice: RetryNotice) => void;
  };

  constructor(opts: HttpClientOptions = {}) {
    this.#opts = {
      userAgent: opts.userAgent ?? USER_AGENT,
      connectTimeoutMs: opts.connectTimeoutMs ?? 10_000,
      requestTimeoutMs: opts.requestTimeoutMs ?? 30_000,
      retry: { ...DEFAULT_RETRY, ...opts.retry },
      sleep: opts.sleep ?? ((ms) => delay(ms)),
      random: opts.random ?? Math.random,
      clock: opts.clock ?? Date.now,
      ...(opts.log ? { log: opts.log } : {}),
      ...(opts.onRetry ? { onRetry: opts.onRetry } : {}),
      ...(opts.proxy && usesProxy(opts.proxy) ? { proxy: opts.proxy } : {}),
    };
  }

  /** A value (client secret, token) that must never appear in the log, whatever key carries it. */
  addSecret(value: string | undefined): void {
    if (value && value.length >= 4) this.#secrets.add(value);
  }

  async request(req: HttpRequest): Promise<HttpResponse> {
    const idempotent = req.idempotent ?? req.method === 'GET';
    const { retry } = this.#opts;
    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      this.#logRequest(req);
      let res: HttpResponse;
      try {
        res = await this.#send(req);
      } catch (err) {
        const again = (idempotent || neverReachedServer(err)) && attempt < retry.maxAttempts;
        const wait = backoffDelay(attempt - 1, retry, this.#opts.random);
        this.#log(`! ${req.method} ${req.url}: ${(err as Error).message}${again ? `; retrying in ${seconds(wait)}` : ''}`);
        if (!again) {
          const error = networkError(err, { method: req.method, url: req.url, idempotent }, {
            connectMs: this.#opts.connectTimeoutMs,
            headersMs: this.#opts.requestTimeoutMs,
          });
          const via = this.#opts.proxy && proxyFor(this.#opts.proxy, req.url);
          if (via) error.message = `${error.message} (through the proxy ${via})`;
          throw error;
        }
        this.#opts.onRetry?.({ attempt: attempt + 1, of: retry.maxAttempts, reason: networkErrorCode(err) ?? 'a network error', waitMs: wait });
        await this.#opts.sleep(wait);
        continue;
      }
      this.#logResponse(res, performance.now() - started);
      if (!idempotent || !RETRYABLE_STATUSES.has(res.status) || attempt >= retry.maxAttempts) return res;
      let wait = backoffDelay(attempt - 1, retry, this.#opts.random);
      if (res.retryAfterMs !== undefined) {
        if (res.retryAfterMs > retry.maxRetryAfterMs) {
          this.#log(`! Retry-After of ${seconds(res.retryAfterMs)} is longer than ${seconds(retry.maxRetryAfterMs)}; giving up`);
          return res;
        }
        wait = res.retryAfterMs;
      }
      this.#log(`! retrying in ${seconds(wait)} (attempt ${attempt + 1} of ${retry.maxAttempts})`);
      this.#opts.onRetry?.({ attempt: attempt + 1, of: retry.maxAttempts, reason: String(res.status), waitMs: wait });
      await this.#opts.sleep(wait);
    }
  }

  async close(): Promise<void> {
    const pools = [...this.#pools.values(), ...(this.#proxied ? [this.#proxied] : [])];
    this.#pools.clear();
    this.#proxied = undefined;
    await Promise.all(pools.map((p) => p.close().catch(() => undefined)));
  }

  async #send(req: HttpRequest): Promise<HttpResponse> {
    const url = new URL(req.url);
    const res = await this.#dispatcher(url.origin).request({
      origin: url.origin,
      method: req.method as Dispatcher.HttpMethod,
      path: `${url.pathname}${url.search}`,
      headers: this.#headers(req),
      ...(req.json !== undefined ? { body: JSON.stringify(req.json) } : {}),
    });
    const text = await res.body.text();
    const headers = res.headers as Record<string, string | string[] | undefined>;
    const retryAfterMs = parseRetryAfter(headers['retry-after'], this.#opts.clock());
    return {
      status: res.statusCode,
      headers,
      text,
      json: parseJson(text),
      url: req.url,
      method: req.method,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    };
  }

  #headers(req: HttpRequest): Record<string, string> {
    return {
      accept: 'application/json',
      'user-agent': this.#opts.userAgent,
      ...(req.json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...req.headers,
    };
  }

  #dispatcher(origin: string): Dispatcher {
    const timeouts = { connectTimeoutMs: this.#opts.connectTimeoutMs, requestTimeoutMs: this.#opts.requestTimeoutMs };
    if (this.#opts.proxy) return (this.#proxied ??= proxyAgent(this.#opts.proxy, timeouts));
    let pool = this.#pools.get(origin);
    if (!pool) {
      pool = directPool(origin, timeouts);
      this.#pools.set(origin, pool);
    }
    return pool;
  }

  #logRequest(req: HttpRequest): void {
    if (!this.#opts.log) return;
    this.#log(`> ${req.method} ${req.url}`);
    for (const [name, value] of Object.entries(this.#headers(req))) this.#log(`> ${name}: ${redactHeader(name, value)}`);
    if (req.json !== undefined) this.#log(`> ${redactBody(JSON.stringify(req.json), true)}`);
  }

  #logResponse(res: HttpResponse, ms: number): void {
    if (!this.#opts.log) return;
    this.#log(`< ${res.status} ${STATUS_CODES[res.status] ?? ''} (${Math.round(ms)} ms)`);
    for (const [name, value] of Object.entries(res.headers)) {
      for (const v of Array.isArray(value) ? value : [value ?? '']) this.#log(`< ${name}: ${redactHeader(name, v)}`);
    }
    if (res.text) this.#log(`< ${redactBody(res.text, false)}`);
  }

  #log(line: string): void {
    if (!this.#opts.log) return;
    let safe = line;
    for (const secret of this.#secrets) safe = safe.split(secret).join(REDACTED);
    this.#opts.log(safe);
  }
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}
