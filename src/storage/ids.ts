import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` characters of [A-Za-z0-9], uniformly drawn (rejection sampling, no modulo bias). */
export function randomAlphanumeric(length: number, bytes: (n: number) => Buffer = randomBytes): string {
  let out = '';
  while (out.length < length) {
    for (const b of bytes(length * 2)) {
      if (b < 248) out += ALPHABET[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** `n` as `width` base-62 digits (most significant first, so text order is numeric order). */
function base62(n: number, width: number): string {
  let out = '';
  for (let i = 0; i < width; i++) {
    out = ALPHABET_SORTED[n % 62]! + out;
    n = Math.floor(n / 62);
  }
  return out;
}
const ALPHABET_SORTED = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes for ids, drawn 4 KiB at a time from the CSPRNG: one call per ~200 ids instead
 * of one per id. Each crypto.randomBytes call is a trip to OpenSSL (and at times the
 * kernel), ~16 µs on a busy machine: 30 µs of every POST member, which makes two ids
 * (docs/performance.md). Ids are not secrets; client secrets draw from randomBytes directly.
 */
const ID_POOL_BYTES = 4096;
let idPool = Buffer.alloc(0);
let idPoolAt = 0;
export function idRandomBytes(n: number): Buffer {
  if (n > ID_POOL_BYTES) return randomBytes(n);
  if (idPoolAt + n > idPool.length) {
    idPool = randomBytes(ID_POOL_BYTES);
    idPoolAt = 0;
  }
  idPoolAt += n;
  return idPool.subarray(idPoolAt - n, idPoolAt);
}

/**
 * Opaque resource identifiers, prefixed by kind as many APIs do (`ch_…`, `mb_…`, `ev_…`):
 * 7 base-62 digits of the creation time in milliseconds, then 9 random characters. New
 * rows therefore land at the end of the primary-key index instead of at a random page,
 * which keeps inserts cheap on a large table (bench:server, POST member).
 */
export const newId = (prefix: 'ch' | 'mb' | 'ev' | 'chg', nowMs = Date.now()) =>
  `${prefix}_${base62(nowMs, 7)}${randomAlphanumeric(9, idRandomBytes)}`;
