import { z } from 'zod';

export const TOKEN_LIFETIME_SECONDS = 3600;

/** POST /{version}/auth/token body (JSON or form-encoded); credentials may come by HTTP Basic instead. */
export const TokenRequest = z.object({
  grant_type: z.string().optional(),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
});
export type TokenRequest = z.infer<typeof TokenRequest>;

export const TokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

export const AuthServerMetadata = z.object({
  issuer: z.string(),
  token_endpoint: z.string(),
  grant_types_supported: z.array(z.string()),
  token_endpoint_auth_methods_supported: z.array(z.string()),
  response_types_supported: z.array(z.string()),
});
