import type { Prng } from './prng.js';

/** Splits `total` into whole shares proportional to `weights`; the shares sum to `total` exactly. */
export function allocate(prng: Prng, total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, w) => a + w, 0);
  if (weights.length === 0 || total <= 0) return weights.map(() => 0);
  const shares = weights.map((w) => (sum > 0 ? Math.floor((total * w) / sum) : 0));
  let left = total - shares.reduce((a, n) => a + n, 0);
  while (left > 0) {
    const i = prng.int(0, weights.length - 1);
    if (sum === 0 || weights[i]! > 0) {
      shares[i]!++;
      left--;
    }
  }
  return shares;
}

/**
 * A heavy-tailed size weight: a few big chambers, many small ones, some empty.
 * Mean about 26; the seed scales the weights to the wanted total.
 */
export function chamberWeight(prng: Prng): number {
  const r = prng.float();
  if (r < 0.03) return prng.int(250, 600);
  if (r < 0.18) return prng.int(30, 60);
  if (r < 0.75) return prng.int(3, 20);
  return prng.int(0, 3);
}
