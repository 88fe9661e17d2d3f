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

/** Opaque resource identifiers, prefixed by kind as many APIs do (`ch_…`, `mb_…`, `ev_…`). */
export const newId = (prefix: 'ch' | 'mb' | 'ev') => `${prefix}_${randomAlphanumeric(16)}`;
