// The profile's server, credentials and token for one import. The import needs the HTTP
// client and the token provider themselves, not only the DirectoryApi, to see the status
// of each POST (409 = skipped) and to repeat a POST, which the generic client rightly
// never does; so POSTs get a second client without retries of its own.
import type { CliContext, GlobalOptions } from '../core/context.js';
import { httpClientFor } from '../client/create-http.js';
import { DirectoryClient } from '../client/directory-client.js';
import type { HttpClient } from '../client/http.js';
import { openProfileForCalls, requireWriteScope } from '../client/session.js';
import type { TokenProvider } from '../client/tokens.js';
import type { DirectoryApi } from '../client/types.js';

export interface ImportConnection {
  baseUrl: string;
  profileName: string;
  apiVersion: 'auto' | 'v1' | 'v2';
  /** For the chamber check (GET), with the client core's usual retries. */
  api: DirectoryApi;
  tokens: TokenProvider;
  /** For the member POSTs: no retries of its own, the import's sender decides (src/import/sender.ts). */
  postHttp: HttpClient;
  /** Exit 3 before any row when the profile's client holds only the read scope (Session.requireWrite). */
  requireWrite(command: string): Promise<void>;
  close(): Promise<void>;
}

export function openImportConnection(globals: GlobalOptions, ctx: CliContext): ImportConnection {
  const p = openProfileForCalls(globals, ctx);
  const postHttp = httpClientFor(globals, ctx, { retry: { maxAttempts: 1 } });
  return {
    baseUrl: p.baseUrl,
    profileName: p.name,
    apiVersion: p.apiVersion,
    api: new DirectoryClient(p.http, p.tokens, p.baseUrl),
    tokens: p.tokens,
    postHttp,
    requireWrite: (command) => requireWriteScope(p, command),
    close: async () => {
      await Promise.all([p.http.close(), postHttp.close()]);
    },
  };
}
