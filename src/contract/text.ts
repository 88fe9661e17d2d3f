// Text must be well-formed Unicode: a lone UTF-16 surrogate (JSON's "\udfff") cannot be stored as
// UTF-8, so a server that took it would read back something other than what it acknowledged
// (docs/server-behaviour.md#hostile-input: refused, 422 on a body field, 400 on a query parameter).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isWellFormed = (s: string) => !LONE_SURROGATE.test(s);

export const NOT_WELL_FORMED = 'must be well-formed Unicode text (it holds a lone surrogate)';

// U+0000 is well-formed, but PostgreSQL's text types cannot hold it: refused on every backend alike
// (docs/server-behaviour.md#hostile-input), so that SQLite does not keep what PostgreSQL would
// refuse.
export const hasNoNul = (s: string) => !s.includes('\u0000');

/** The same as a pattern: a zod check that the OpenAPI documents carry (`pattern`). */
export const NO_NUL = /^[^\u0000]*$/;

export const HOLDS_NUL = 'must not hold U+0000 (NUL)';

/** Why a text cannot be stored as given, or undefined when it can. */
export const unstorable = (s: string): string | undefined => (!isWellFormed(s) ? NOT_WELL_FORMED : !hasNoNul(s) ? HOLDS_NUL : undefined);
