import { startServer, type RunningServer } from '../../src/server/start.js';

export interface TestServer {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  server: RunningServer;
  /** Token requests the server has answered so far. */
  tokenRequests(): number;
  close(): Promise<void>;
}

export const TEST_CLIENT_ID = 'testclient';
export const TEST_CLIENT_SECRET = 'TestSecret0123456789abcdefXYZ';

/** The real embedded server, in-process, on a random loopback port with an in-memory database. */
export async function startTestServer(
  opts: { now?: () => Date; seed?: 'demo' | 'none'; dbPath?: string; log?: (line: string) => void } = {},
): Promise<TestServer> {
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    dbPath: opts.dbPath ?? ':memory:',
    seed: opts.seed ?? 'demo',
    clientId: TEST_CLIENT_ID,
    clientSecret: TEST_CLIENT_SECRET,
    now: opts.now,
    log: opts.log,
  });
  return {
    baseUrl: server.baseUrl,
    clientId: TEST_CLIENT_ID,
    clientSecret: TEST_CLIENT_SECRET,
    server,
    tokenRequests: () => server.stats.tokenRequests,
    close: () => server.close(),
  };
}

/** Fetches a token for `version` with the test client. */
export async function getToken(baseUrl: string, version: 'v1' | 'v2' = 'v2'): Promise<string> {
  const res = await fetch(`${baseUrl}/${version}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: TEST_CLIENT_ID, client_secret: TEST_CLIENT_SECRET }),
  });
  if (res.status !== 200) throw new Error(`token request failed: ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}
