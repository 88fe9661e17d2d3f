import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY,
  backoffDelay,
  networkErrorCode,
  neverReachedServer,
  parseRetryAfter,
} from '../../src/client/retry.js';

const policy = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1_000 };

describe('backoffDelay (full jitter)', () => {
  it('draws below a ceiling that doubles per retry', () => {
    const top = () => 0.999999;
    expect([0, 1, 2, 3].map((r) => backoffDelay(r, policy, top))).toEqual([99, 199, 399, 799]);
  });

  it('caps the ceiling at maxDelayMs', () => {
    expect(backoffDelay(10, policy, () => 0.5)).toBe(500);
  });

  it('can be zero (full jitter, not equal jitter)', () => {
    expect(backoffDelay(3, policy, () => 0)).toBe(0);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads delta-seconds', () => {
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP date relative to the clock', () => {
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5_000);
  });

  it('treats a date in the past as no wait', () => {
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
  });

  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-1', now)).toBeUndefined();
  });
});

describe('network error classification', () => {
  const err = (code: string) => Object.assign(new Error(code), { code });

  it('knows the failures that happen before the request is sent', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']) {
      expect(neverReachedServer(err(code)), code).toBe(true);
    }
  });

  it('does not count failures after sending (reset, closed socket, timeouts)', () => {
    for (const code of ['ECONNRESET', 'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'EPIPE']) {
      expect(neverReachedServer(err(code)), code).toBe(false);
    }
    expect(neverReachedServer(new Error('no code'))).toBe(false);
  });

  it('looks into AggregateErrors (happy eyeballs) and causes', () => {
    expect(networkErrorCode(new AggregateError([err('ECONNREFUSED'), err('ECONNREFUSED')]))).toBe('ECONNREFUSED');
    expect(networkErrorCode(new Error('wrapped', { cause: err('ENOTFOUND') }))).toBe('ENOTFOUND');
  });
});
