import { describe, expect, it } from 'vitest';
import { idRandomBytes, newId, randomAlphanumeric } from '../../src/storage/ids.js';

describe('ids', () => {
  it('draws the random bytes of ids from a pool without handing out any byte twice', () => {
    const first = idRandomBytes(18);
    const kept = Buffer.from(first);
    const seen = new Set<string>([first.toString('hex')]);
    // well past several refills of the 4 KiB pool, with a size that does not divide it
    for (let i = 0; i < 2_000; i++) {
      const b = idRandomBytes(18);
      expect(b).toHaveLength(18);
      seen.add(b.toString('hex'));
    }
    expect(seen.size).toBe(2_001);
    // a refill makes a new pool: bytes handed out before are never overwritten
    expect(first.equals(kept)).toBe(true);
    expect(idRandomBytes(10_000)).toHaveLength(10_000);
  });

  it('makes ids with the kind, the time in order, and 9 random characters; 100,000 without a repeat', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 100_000; i++) ids.add(newId('mb', 1_764_000_000_000));
    expect(ids.size).toBe(100_000);
    for (const id of [...ids].slice(0, 100)) expect(id).toMatch(/^mb_[0-9A-Za-z]{16}$/);
    expect(newId('ch', 1_000) < newId('ch', 2_000)).toBe(true);
  });

  it('draws alphanumerics uniformly from the source it is given', () => {
    let n = 0;
    const counting = (k: number) => Buffer.from(Array.from({ length: k }, () => n++ % 256));
    const s = randomAlphanumeric(40, counting);
    expect(s).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(s.slice(0, 3)).toBe('ABC'); // bytes 0, 1, 2
  });
});
