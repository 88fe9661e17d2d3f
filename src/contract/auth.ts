import * as z from 'zod/mini';

export const TOKEN_LIFETIME_SECONDS = 3600;

export const GRANT_TYPE = 'client_credentials';

/**
 * What a client may do, and what its tokens carry (docs/server-behaviour.md#tokens):
 * `read` reads; `write` also creates (the v2 POSTs) and includes reading.
 */
export const SCOPES = ['read', 'write'] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * POST /{version}/auth/token body (JSON or form-encoded). The client authenticates with
 * client_id and client_secret here (`client_secret_post`) or by HTTP Basic
 * (`client_secret_basic`, then client_secret is absent and client_id, if sent, the same).
 * The endpoint answers in OAuth's terms (src/server/auth/token-endpoint.ts), so it reads the
 * body itself; test/server/openapi.test.ts holds it to this schema.
 */
export const TokenRequest = z.object({
  grant_type: z.literal(GRANT_TYPE),
  client_id: z.optional(z.string().check(z.minLength(1))),
  client_secret: z.optional(z.string().check(z.minLength(1))),
  scope: z.optional(
    z.string().check(
      z.regex(/^(read|write)( (read|write))*$/),
      z.describe('Space-separated scopes to ask for (RFC 6749 section 3.3): `read`, `write`. Absent: all the client holds; more than it holds is 400 `invalid_scope`.'),
    ),
  ),
});
export type TokenRequest = z.infer<typeof TokenRequest>;

export const TokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.int().check(z.describe('Seconds the token is valid for')),
  scope: z.enum(SCOPES).check(z.describe('What the token may do: `write` includes reading')),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

/**
 * A token answer as the client reads it, from any server: `scope` may be absent (RFC 6749
 * section 5.1: when it is what was asked) or name scopes of the server's own.
 */
export const TokenAnswer = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.int(),
  scope: z.optional(z.string()),
});

export const AuthServerMetadata = z.object({
  issuer: z.string(),
  token_endpoint: z.string(),
  grant_types_supported: z.array(z.string()),
  token_endpoint_auth_methods_supported: z.array(z.string()),
  response_types_supported: z.array(z.string()),
});
