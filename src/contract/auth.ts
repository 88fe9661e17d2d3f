import * as z from 'zod/mini';

export const TOKEN_LIFETIME_SECONDS = 3600;

/** POST /{version}/auth/token body (JSON or form-encoded); credentials may come by HTTP Basic instead. */
export const TokenRequest = z.object({
  grant_type: z.optional(z.string()),
  client_id: z.optional(z.string()),
  client_secret: z.optional(z.string()),
});
export type TokenRequest = z.infer<typeof TokenRequest>;

export const TokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.int(),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

export const AuthServerMetadata = z.object({
  issuer: z.string(),
  token_endpoint: z.string(),
  grant_types_supported: z.array(z.string()),
  token_endpoint_auth_methods_supported: z.array(z.string()),
  response_types_supported: z.array(z.string()),
});
