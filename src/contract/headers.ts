import * as z from 'zod/mini';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/**
 * The Idempotency-Key of a v2 POST (docs/server-behaviour.md#idempotency): 1 to 255 visible ASCII
 * characters.
 */
export const IdempotencyKey = z.string().check(z.regex(/^[\x21-\x7e]{1,255}$/, 'must be 1 to 255 visible ASCII characters'));
