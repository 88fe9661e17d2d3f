import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// The token endpoint's cost per caller (docs/server-behaviour.md#tokens): each check of a client
// secret is an scrypt (~30 ms of CPU, by design), so a flood of wrong secrets could starve good
// clients. Two rules keep it bounded:
// - past FAILURE_LIMIT failed (or still running) checks from one address within WINDOW_MS,
//   that address is answered 429 before any secret is hashed;
// - credentials verified within REMEMBER_MS are checked from memory: an HMAC of the secret
//   under a key that lives only in this process, compared in constant time, and only while
//   the stored hash is the one it was verified against (a new secret forgets it).

export const FAILURE_LIMIT = 30;
export const WINDOW_MS = 60_000;
/** How long a 429 to a limited address is held back (a flood then slows itself down). */
export const LIMITED_ANSWER_DELAY_MS = 1000;
const REMEMBER_MS = 10 * 60_000;
/** Bounds on memory: addresses tracked, clients remembered. */
const MAX_ADDRESSES = 10_000;
const MAX_REMEMBERED = 1_000;

export class CredentialGuard {
  readonly #key = randomBytes(32);
  /** Per address: when each counted check started (oldest first). */
  readonly #attempts = new Map<string, number[]>();
  readonly #verified = new Map<string, { mac: Buffer; storedHash: string; at: number }>();

  constructor(private readonly now: () => number) {}

  #mac(secret: string): Buffer {
    return createHmac('sha256', this.#key).update(secret).digest();
  }

  /**
   * The hash these credentials were verified against recently, when it is one of
   * `validHashes` (read from the database on each token request: the client's secret, and
   * its old one during a rotation's grace; none once it is revoked). So this memory never
   * outlives a revocation, a rotation, or the end of a grace.
   */
  remembers(clientId: string, secret: string, validHashes: readonly string[]): string | undefined {
    const entry = this.#verified.get(clientId);
    if (!entry) return undefined;
    if (!validHashes.includes(entry.storedHash) || this.now() - entry.at > REMEMBER_MS) {
      this.#verified.delete(clientId);
      return undefined;
    }
    return timingSafeEqual(entry.mac, this.#mac(secret)) ? entry.storedHash : undefined;
  }

  remember(clientId: string, secret: string, storedHash: string): void {
    if (this.#verified.size >= MAX_REMEMBERED && !this.#verified.has(clientId)) this.#verified.clear();
    this.#verified.set(clientId, { mac: this.#mac(secret), storedHash, at: this.now() });
  }

  /**
   * Before an scrypt check from `address`: undefined when it may go ahead (and it is counted
   * until it succeeds), else the seconds to wait. Checks still running count, so a burst
   * cannot get more than FAILURE_LIMIT hashes going at once.
   */
  admit(address: string): { retryAfterSeconds: number } | undefined {
    const now = this.now();
    const recent = (this.#attempts.get(address) ?? []).filter((t) => now - t < WINDOW_MS);
    if (recent.length >= FAILURE_LIMIT) {
      this.#attempts.set(address, recent);
      return { retryAfterSeconds: Math.max(1, Math.ceil((recent[0]! + WINDOW_MS - now) / 1000)) };
    }
    if (this.#attempts.size >= MAX_ADDRESSES && !this.#attempts.has(address)) this.#prune(now);
    recent.push(now);
    this.#attempts.set(address, recent);
    return undefined;
  }

  /** The check admitted for `address` succeeded: it no longer counts against it. */
  succeeded(address: string): void {
    const list = this.#attempts.get(address);
    if (!list) return;
    list.pop();
    if (list.length === 0) this.#attempts.delete(address);
  }

  #prune(now: number): void {
    for (const [address, times] of this.#attempts) {
      if (times.every((t) => now - t >= WINDOW_MS)) this.#attempts.delete(address);
    }
    if (this.#attempts.size >= MAX_ADDRESSES) this.#attempts.clear(); // a flood from everywhere: start over
  }
}
