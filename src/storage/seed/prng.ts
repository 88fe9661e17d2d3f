// A small seeded PRNG, so the same seed (and the same `now`) gives byte-identical demo data.
// sfc32 (128-bit state, passes PractRand), its state set from the seed by a bijective mixer.

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** Distinct (seed, stream) pairs give distinct states, so one seed can feed independent streams. */
  constructor(seed: number, stream = 0) {
    this.a = mix32(seed + 0x9e3779b9);
    this.b = mix32(seed + 0x3c6ef372);
    this.c = mix32(stream ^ 0x5bf03635);
    this.d = 1;
    for (let i = 0; i < 15; i++) this.next(); // mix the state before first use
  }

  /** A uniform 32-bit unsigned integer. */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  float(): number {
    return this.next() / 4294967296;
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)]!;
  }

  /** One of `choices`, each [value, weight] (weights need not sum to 1). */
  weighted<T>(choices: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of choices) total += w;
    let r = this.float() * total;
    for (const [v, w] of choices) {
      r -= w;
      if (r < 0) return v;
    }
    return choices[choices.length - 1]![0];
  }

  /** `n` characters of [A-Za-z0-9] (the bias of 62/2^32 per character is irrelevant here). */
  alphanumeric(n: number): string {
    let out = '';
    for (let i = 0; i < n; i++) out += ID_ALPHABET[Math.floor(this.float() * 62)];
    return out;
  }

  /** An id shaped like the ones `newId` makes (`ch_…`, `mb_…`, `ev_…`), but drawn from this PRNG. */
  id(prefix: 'ch' | 'mb' | 'ev'): string {
    return `${prefix}_${this.alphanumeric(16)}`;
  }

  /** `#` becomes a digit and `A` an upper-case letter, e.g. `20###` or `SW# #AA`. */
  pattern(p: string): string {
    let out = '';
    for (const ch of p) {
      if (ch === '#') out += String.fromCharCode(48 + Math.floor(this.float() * 10));
      else if (ch === 'A') out += String.fromCharCode(65 + Math.floor(this.float() * 26));
      else out += ch;
    }
    return out;
  }
}

/** The murmur3 finaliser: a bijection on 32-bit integers that scatters nearby inputs. */
function mix32(x: number): number {
  let z = x | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) | 0;
}
