// The e-mail addresses seen so far in the file, to catch a duplicate before it is sent.
//
// A million addresses kept as strings would cost 60-100 MB of heap (the budget for the whole
// import is 150 MB), so each address is kept as a 64-bit hash and the line it was on:
// 12 bytes in typed arrays (open addressing, linear probing; invisible to the garbage
// collector), 24 MB for a million addresses, 36 MB for the moment the table doubles.
// Two different addresses share a hash with a probability of about n²/2⁶⁵ (3·10⁻⁸ for a
// million rows); such a row would be reported as a duplicate of the other line, never
// dropped silently. (Fewer bits do not do: with 40, a million rows collide half the time.)

const INITIAL_CAPACITY = 1024;
const MAX_LOAD = 0.7;

export class EmailSet {
  #hi = new Uint32Array(INITIAL_CAPACITY);
  /** The other half of the hash; its low bits pick the slot. */
  #lo = new Uint32Array(INITIAL_CAPACITY);
  /** The line of each entry; 0 marks a free slot (lines start at 1). */
  #lines = new Uint32Array(INITIAL_CAPACITY);
  #size = 0;
  #h1 = 0;
  #h2 = 0;

  get size(): number {
    return this.#size;
  }

  /** Adds `key` as seen on `line` (>= 1); returns 0 when it is new, else the line it was first seen on. */
  add(key: string, line: number): number {
    this.#hash(key);
    const mask = this.#lines.length - 1;
    for (let i = this.#h2 & mask; ; i = (i + 1) & mask) {
      const at = this.#lines[i]!;
      if (at === 0) {
        this.#hi[i] = this.#h1;
        this.#lo[i] = this.#h2;
        this.#lines[i] = line;
        if (++this.#size > this.#lines.length * MAX_LOAD) this.#grow();
        return 0;
      }
      if (this.#hi[i] === this.#h1 && this.#lo[i] === this.#h2) return at;
    }
  }

  #grow(): void {
    const hi = this.#hi;
    const lo = this.#lo;
    const lines = this.#lines;
    const capacity = lines.length * 2;
    const mask = capacity - 1;
    this.#hi = new Uint32Array(capacity);
    this.#lo = new Uint32Array(capacity);
    this.#lines = new Uint32Array(capacity);
    for (let j = 0; j < lines.length; j++) {
      if (lines[j] === 0) continue;
      let i = lo[j]! & mask;
      while (this.#lines[i] !== 0) i = (i + 1) & mask;
      this.#hi[i] = hi[j]!;
      this.#lo[i] = lo[j]!;
      this.#lines[i] = lines[j]!;
    }
  }

  /** Two 32-bit lanes of multiplicative hashing with a final avalanche (cyrb53, both lanes kept). */
  #hash(key: string): void {
    let h1 = 0xdeadbeef;
    let h2 = 0x41c6ce57;
    for (let i = 0; i < key.length; i++) {
      const ch = key.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
    h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
    h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    this.#h1 = h1 >>> 0;
    this.#h2 = h2 >>> 0;
  }
}
