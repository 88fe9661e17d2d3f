/**
 * A seeded xorshift generator: the same sequence on every run, so that benchmarks draw the
 * same varied requests each time and their figures compare. `random(n)` is in 0..n-1.
 */
export function seededRandom(seed = 0x2545f491) {
  let state = seed;
  const random = (n: number) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
  const pick = <T>(items: readonly T[]) => items[random(items.length)]!;
  return { random, pick };
}
