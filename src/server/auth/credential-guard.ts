import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// The token endpoint's cost per caller (docs/server-behaviour.md#tokens): each check of a client
// secret is an scrypt (~30 ms of CPU, by design), so a flood of wrong secrets could starve good
// clients. Two rules keep it bounded:
// - past FAILURE_LIMIT failed (or still running) checks within WINDOW_MS from one address (an
//   IPv6 address counts by its /64, what one host is usually given), or for one client
//   (whatever the addresses: a flood spread over many), the next is answered 429 before any
//   secret is hashed;
// - credentials verified within REMEMBER_MS are checked from memory: an HMAC of the secret
//   under a key that lives only in this process, compared in constant time, and only while
//   the stored hash is the one it was verified against (a new secret forgets it). So a client
//   verified recently keeps getting tokens while its id or address is flooded.

export const FAILURE_LIMIT = 30;
export const WINDOW_MS = 60_000;
/** How long a 429 to a limited address is held back (a flood then slows itself down). */
export const LIMITED_ANSWER_DELAY_MS = 1000;
const REMEMBER_MS = 10 * 60_000;
/** Bounds on memory: addresses and clients tracked, clients remembered. */
const MAX_ADDRESSES = 10_000;
const MAX_REMEMBERED = 1_000;

export class CredentialGuard {
  readonly #key = randomBytes(32);
  /** Per address (addressKey) and per client: when each counted check started (oldest first). */
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
   * Before an scrypt check from `address` of the secret of `clientId` (an existing client's;
   * undefined for an unknown id): undefined when it may go ahead (and it is counted, for the
   * address and the client, until it succeeds), else the seconds to wait and which limit it
   * met. Checks still running count, so a burst cannot get more than FAILURE_LIMIT hashes
   * going at once.
   */
  admit(address: string, clientId?: string): { retryAfterSeconds: number; limit: 'address' | 'client' } | undefined {
    const now = this.now();
    const keys = this.#keys(address, clientId);
    const recent = keys.map((key) => (this.#attempts.get(key) ?? []).filter((t) => now - t < WINDOW_MS));
    for (const [i, times] of recent.entries()) {
      if (times.length < FAILURE_LIMIT) continue;
      this.#attempts.set(keys[i]!, times);
      return { retryAfterSeconds: Math.max(1, Math.ceil((times[0]! + WINDOW_MS - now) / 1000)), limit: i === 0 ? 'address' : 'client' };
    }
    for (const [i, key] of keys.entries()) {
      if (this.#attempts.size >= MAX_ADDRESSES && !this.#attempts.has(key)) this.#prune(now);
      recent[i]!.push(now);
      this.#attempts.set(key, recent[i]!);
    }
    return undefined;
  }

  /** The check admitted for `address` and `clientId` succeeded: it no longer counts against them. */
  succeeded(address: string, clientId?: string): void {
    for (const key of this.#keys(address, clientId)) {
      const list = this.#attempts.get(key);
      if (!list) continue;
      list.pop();
      if (list.length === 0) this.#attempts.delete(key);
    }
  }

  #keys(address: string, clientId: string | undefined): string[] {
    // a client id cannot hold a space, an address cannot start with `client `
    return clientId === undefined ? [addressKey(address)] : [addressKey(address), `client ${clientId}`];
  }

  #prune(now: number): void {
    for (const [address, times] of this.#attempts) {
      if (times.every((t) => now - t >= WINDOW_MS)) this.#attempts.delete(address);
    }
    if (this.#attempts.size >= MAX_ADDRESSES) this.#attempts.clear(); // a flood from everywhere: start over
  }
}

/**
 * What the limit counts an address by: an IPv4 address (an IPv4-mapped IPv6 one included) as
 * itself, an IPv6 address by its first 64 bits (`2001:db8:1:2::/64`), since a host is usually
 * given a /64 and may send from any address in it.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail] = address.split('%')[0]!.split('::');
  const first = head === '' ? [] : head.split(':');
  const last = tail === undefined || tail === '' ? [] : tail.split(':');
  // a dotted IPv4 ending (`64:ff9b::192.0.2.1`) holds two groups
  const lastGroups = last.length + (last.at(-1)?.includes('.') ? 1 : 0);
  const groups = tail === undefined ? first : [...first, ...Array<string>(Math.max(0, 8 - first.length - lastGroups)).fill('0'), ...last];
  return `${groups
    .slice(0, 4)
    .map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16).toString(16) : g))
    .join(':')}::/64`;
}
