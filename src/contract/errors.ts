import * as z from 'zod/mini';
import { unstorable } from './text.js';

/** Field name (dotted for nested fields) → every message for that field. */
export type FieldErrors = Record<string, string[]>;

export const ErrorBody = z.object({ error: z.string() });
export const ValidationErrorBody = z.object({
  error: z.string(),
  fields: z.record(z.string(), z.array(z.string())),
});
/** The token endpoint's errors (RFC 6749 section 5.2; 429 when one address fails too often). */
export const TOKEN_ERRORS = ['invalid_request', 'invalid_client', 'invalid_scope', 'unsupported_grant_type', 'temporarily_unavailable'] as const;
export const TokenErrorBody = z.object({ error: z.enum(TOKEN_ERRORS), error_description: z.string() });
/** A resource endpoint's 401 (RFC 6750 section 3). */
export const BearerErrorBody = z.object({ error: z.literal('invalid_token'), error_description: z.string() });
/** A resource endpoint's 403: the token lacks the scope the request needs (RFC 6750 section 3.1). */
export const InsufficientScopeBody = z.object({ error: z.literal('insufficient_scope'), error_description: z.string() });
/**
 * Every path but `GET /livez` while `serve` starts, from the moment it listens until it is
 * ready (docs/server-behaviour.md#start-up): 503, with `Retry-After`.
 */
export const StartingBody = z.object({ error: z.literal('starting'), error_description: z.string() });
export type StartingBody = z.infer<typeof StartingBody>;
/** The start-up answer's body, as the documents' example shows it. */
export const STARTING: StartingBody = { error: 'starting', error_description: 'the server is starting; try again in a moment' };
/** Either OAuth-shaped error body, as the client reads them. */
export const OAuthErrorBody = z.union([TokenErrorBody, BearerErrorBody, InsufficientScopeBody]);
export type ErrorBody = z.infer<typeof ErrorBody>;
export type ValidationErrorBody = z.infer<typeof ValidationErrorBody>;
export type TokenErrorBody = z.infer<typeof TokenErrorBody>;

/** Collects every zod issue under its dotted path, so all failing fields come back at once. */
export function fieldErrors(error: z.core.$ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    const messages = (out[key] ??= []);
    if (!messages.includes(issue.message)) messages.push(issue.message);
  }
  return out;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; fields: FieldErrors };

export function parseWith<S extends z.ZodMiniType>(schema: S, input: unknown): Parsed<z.output<S>> {
  const r = schema.safeParse(input);
  return r.success ? { ok: true, value: r.data } : { ok: false, fields: fieldErrors(r.error) };
}

/**
 * Parses a query string object (`key → string | string[]`) with `schema`. A parameter sent
 * twice is an error rather than a silent pick. With `strictFilters`, a `filter[...]` name
 * the schema does not know is an error too (a typo would otherwise return everything);
 * other unknown parameters are ignored.
 */
export function parseQuery<S extends z.ZodMiniObject>(
  schema: S,
  raw: Record<string, unknown>,
  opts: { strictFilters: boolean },
): Parsed<z.output<S>> {
  const known = Object.keys(schema.shape);
  const fields: FieldErrors = {};
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!known.includes(key)) {
      if (opts.strictFilters && key.startsWith('filter[')) {
        fields[key] = [`is not a filter of this list (filters: ${known.filter((k) => k.startsWith('filter[')).join(', ') || 'none'})`];
      }
      continue;
    }
    if (Array.isArray(value)) fields[key] = ['must be given only once'];
    else if (typeof value === 'string' && unstorable(value)) fields[key] = [unstorable(value)!];
    else input[key] = value;
  }
  const r = parseWith(schema, input);
  if (!r.ok) {
    // a parameter's messages under its own name, also for an item of a list (`include.1`)
    for (const [key, messages] of Object.entries(r.fields)) {
      const name = key.split('.')[0]!;
      fields[name] = [...new Set([...(fields[name] ?? []), ...messages])];
    }
  }
  if (Object.keys(fields).length) return { ok: false, fields };
  return r;
}
