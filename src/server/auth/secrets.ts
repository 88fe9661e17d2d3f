import { hash, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// Client secrets are kept as scrypt hashes and access tokens as SHA-256 hashes: the
// database never holds anything that could be replayed.

const KEY_LENGTH = 32;
const PARAMS = { N: 16384, r: 8, p: 1 } as const;

function scrypt(secret: string, salt: Buffer, params: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(secret, salt, KEY_LENGTH, { ...params, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** `scrypt$N$r$p$salt$hash`, base64url parts. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(secret, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

// Verifying against this when the client id is unknown keeps the response time the same,
// so timing does not tell which client ids exist.
let dummyHash: Promise<string> | undefined;

/** Constant-time check of `secret` against a stored hash (or a dummy when there is none). */
export async function verifySecret(secret: string, stored: string | undefined): Promise<boolean> {
  const encoded = stored ?? (await (dummyHash ??= hashSecret(randomBytes(16).toString('hex'))));
  const [scheme, n, r, p, salt, hash] = encoded.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(secret, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return timingSafeEqual(actual, expected) && stored !== undefined;
}

/** 32 random bytes, base64url: the bearer token handed to the client. */
export const newAccessToken = () => randomBytes(32).toString('base64url');

/**
 * A token's SHA-256, as the tokens table holds it. crypto.hash, the one-shot digest (Node
 * 20.12 and later), rather than createHash().update().digest(): the same bytes, without a Hash
 * object per call; every request's token is hashed (bearer.ts), and in `serve` under load the
 * object's way took ~9 µs a request (a CPU profile under chambers lists; docs/performance.md,
 * the same-work floor section).
 */
export const tokenHash = (token: string) => hash('sha256', token, 'buffer');

/** The same digest in base64: the key of bearer.ts's remembered tokens. */
export const tokenHashBase64 = (token: string) => hash('sha256', token, 'base64');
