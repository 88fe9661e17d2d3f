import { GRANT_TYPE, type ApiVersion } from '../../contract/index.js';

/** RFC 8414 metadata: each version is its own issuer. */
export function authServerMetadata(baseUrl: string, version: ApiVersion) {
  return {
    issuer: `${baseUrl}/${version}`,
    token_endpoint: `${baseUrl}/${version}/auth/token`,
    grant_types_supported: [GRANT_TYPE],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    response_types_supported: [],
  };
}
