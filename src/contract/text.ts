// Text must be well-formed Unicode: a lone UTF-16 surrogate (JSON's "\udfff") cannot be
// stored as UTF-8, so a server that took it would read back something other than what it
// acknowledged (decisions.md: refused, 422 on a body field, 400 on a query parameter).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isWellFormed = (s: string) => !LONE_SURROGATE.test(s);

export const NOT_WELL_FORMED = 'must be well-formed Unicode text (it holds a lone surrogate)';
