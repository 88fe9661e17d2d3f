import { describe, expect, it } from 'vitest';
import { EmailSet } from '../../src/import/email-set.js';

describe('EmailSet', () => {
  it('returns 0 for a new key and the first line for a repeated one', () => {
    const s = new EmailSet();
    expect(s.add('ada@example.org', 2)).toBe(0);
    expect(s.add('bob@example.org', 3)).toBe(0);
    expect(s.add('ada@example.org', 9)).toBe(2);
    expect(s.add('ada@example.org', 10)).toBe(2);
    expect(s.size).toBe(2);
  });

  it('keeps every key through growth: a million addresses, no false duplicates', () => {
    // these are the addresses of the bench file; a 40-bit hash (tried) collided on lines 427 and 692046
    for (const make of [(i: number) => `m.${i}@z19813.example.org`, (i: number) => `person${i}@example.org`]) {
      const s = new EmailSet();
      let repeated = 0;
      for (let i = 0; i < 1_000_000; i++) if (s.add(make(i), i + 2) !== 0) repeated++;
      expect(repeated).toBe(0);
      expect(s.size).toBe(1_000_000);
      for (let i = 0; i < 1_000_000; i += 9973) expect(s.add(make(i), 2e6)).toBe(i + 2);
    }
  });

  it('keys differing in one character are different', () => {
    const s = new EmailSet();
    expect(s.add('a@example.org', 1)).toBe(0);
    expect(s.add('b@example.org', 2)).toBe(0);
    expect(s.add('a@example.orh', 3)).toBe(0);
  });
});
