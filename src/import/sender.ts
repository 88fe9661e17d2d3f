// One POST /v2/chambers/{id}/members per row, repeated on transient failures.
//
// Repeating a POST is safe here, even after the connection dropped mid-request: each row carries an
// Idempotency-Key derived from the chamber and the row itself, so a server that honours it
// (docs/server-behaviour.md#idempotency) answers a repeat with the first answer; and any server
// answers 409 for an e-mail that is already in the chamber, so a POST that did land the first time
// comes back as 409 and the row counts as skipped, never as a second member.
import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { CliError, ExitCode } from '../core/exit-codes.js';
import { errorFromResponse } from '../client/errors.js';
import type { HttpClient, HttpResponse } from '../client/http.js';
import { backoffDelay, type RetryPolicy } from '../client/retry.js';
import type { TokenProvider } from '../client/tokens.js';
import { pathSegment } from '../client/path.js';
import type { MemberCreate } from '../contract/index.js';

export type SendOutcome =
  | { status: 'created' }
  | { status: 'skipped' }
  /** the server rejected the data (422): fix the row */
  | { status: 'invalid'; reason: string }
  /** still failing after the retries (network, 429, 5xx) or an answer that makes no sense */
  | { status: 'failed'; reason: string };

/** Patient: a server that answers 503 for half a minute does not lose rows. */
export const IMPORT_RETRY: RetryPolicy = {
  maxAttempts: 8,
  baseDelayMs: 250,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
};

export interface SenderOptions {
  http: HttpClient;
  tokens: Pick<TokenProvider, 'authorized'>;
  baseUrl: string;
  chamberId: string;
  retry?: RetryPolicy;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** --verbose: one line per retry. */
  log?: (line: string) => void;
}

/** Thrown for what ends the whole import: a token refused right after it was issued, 403, 404 (the chamber is gone). */
export class FatalSendError extends Error {
  constructor(readonly error: CliError) {
    super(error.message);
  }
}

export class RowSender {
  readonly #o: Required<Omit<SenderOptions, 'log'>> & Pick<SenderOptions, 'log'>;
  readonly #url: string;

  constructor(opts: SenderOptions) {
    this.#o = {
      retry: IMPORT_RETRY,
      sleep: (ms) => delay(ms),
      random: Math.random,
      ...opts,
    };
    this.#url = `${opts.baseUrl}/v2/chambers/${pathSegment(opts.chamberId)}/members`;
  }

  async send(body: MemberCreate, line: number): Promise<SendOutcome> {
    const { http, tokens, retry } = this.#o;
    for (let attempt = 1; ; attempt++) {
      let res: HttpResponse;
      try {
        // A 401 gets a new token and the same request (TokenProvider.authorized); one that is
        // still 401 here was refused right after it was issued: the import cannot go on.
        res = await tokens.authorized('v2', (token) =>
          http.request({
            method: 'POST',
            url: this.#url,
            headers: { authorization: `Bearer ${token}`, 'idempotency-key': rowKey(this.#o.chamberId, body) },
            json: body,
            idempotent: true, // see the top of this file
          }),
        );
      } catch (err) {
        // The token endpoint refused the credentials: no row can go.
        if (err instanceof CliError && err.exitCode === ExitCode.AUTH) throw new FatalSendError(err);
        const reason = (err as Error).message;
        if (attempt >= retry.maxAttempts) return { status: 'failed', reason };
        await this.#wait(line, attempt, reason, undefined);
        continue;
      }
      const { status } = res;
      // a repeat answered from its key: the row was created by an earlier attempt or run
      if (status >= 200 && status < 300) return { status: res.headers['idempotent-replayed'] === 'true' ? 'skipped' : 'created' };
      if (status === 409) return { status: 'skipped' };
      const error = errorFromResponse(res);
      // 422, or a 400 whose `fields` name the row's fields: the data was refused, fix the row
      if (status === 422 || (status === 400 && error.exitCode === ExitCode.REJECTED)) {
        return { status: 'invalid', reason: `the server rejected it: ${error.details.length ? error.details.join('; ') : error.message}` };
      }
      if (status === 401 || status === 403 || status === 404) throw new FatalSendError(error);
      if (status === 429 || status >= 500) {
        const tooLong = res.retryAfterMs !== undefined && res.retryAfterMs > retry.maxRetryAfterMs;
        if (attempt < retry.maxAttempts && !tooLong) {
          await this.#wait(line, attempt, `HTTP ${status}`, res.retryAfterMs);
          continue;
        }
      }
      return { status: 'failed', reason: [error.message, ...error.details].join('; ') };
    }
  }

  async #wait(line: number, attempt: number, why: string, retryAfterMs: number | undefined): Promise<void> {
    const { retry, random, sleep, log } = this.#o;
    const ms = retryAfterMs ?? backoffDelay(attempt - 1, retry, random);
    log?.(`! line ${line}: ${why}; retrying in ${(ms / 1000).toFixed(1)} s (attempt ${attempt + 1} of ${retry.maxAttempts})`);
    await sleep(ms);
  }
}

/**
 * The Idempotency-Key of a row: the same row for the same chamber gets the same key, in this
 * run or a resumed one (a file holds an address once: later rows with it are duplicates).
 */
export function rowKey(chamberId: string, body: MemberCreate): string {
  return `import-${createHash('sha256').update(`${chamberId}\n${JSON.stringify(body)}`).digest('base64url')}`;
}
