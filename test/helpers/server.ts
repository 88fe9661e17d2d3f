import { startServer, type RunningServer, type StartOptions } from '../../src/server/start.js';
import { PgStorage } from '../../src/storage/postgres/pg-storage.js';
import { Conformance, generatedDocuments, watchAnswers } from './conformance.js';
import type { FixtureWriter } from './fixture.js';
import { createTestDatabase, type TestDatabase } from './postgres.js';
import { keepLog, noteSecret } from './run-logs.js';

export interface TestServer {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  server: RunningServer;
  /** 'sqlite', or 'postgres' when CHAMBERCTL_TEST_BACKEND=postgres. */
  backend: 'sqlite' | 'postgres';
  /** Writes fixture rows (chosen times and statuses) straight into the server's database. */
  writer: FixtureWriter;
  /** Every row of a table, binary columns as hex: what the database really holds. */
  rows(table: string): Promise<Record<string, unknown>[]>;
  /** Token requests the server has answered so far. */
  tokenRequests(): number;
  /** Every answer checked against the server's OpenAPI documents (test/helpers/conformance.ts). */
  conformance: Conformance;
  /** Stops the server; throws when any answer did not conform to its OpenAPI document. */
  close(): Promise<void>;
}

export const TEST_CLIENT_ID = 'testclient';
export const TEST_CLIENT_SECRET = 'TestSecret0123456789abcdefXYZ';

/** The backend the server tests run on: `npm test` runs them once per backend. */
export const TEST_BACKEND: 'sqlite' | 'postgres' = process.env.CHAMBERCTL_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';

const hex = (row: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Buffer.isBuffer(v) ? v.toString('hex') : v]));

let servers = 0;

function logTo(opts: { log?: (line: string) => void; rawLog?: (line: string) => void }, source: string, line: string): void {
  keepLog(source, line);
  opts.rawLog?.(line.trimEnd());
  const entry = JSON.parse(line) as { req?: { method: string; url: string }; res?: { statusCode: number }; responseTime?: number };
  if (opts.log && entry.req && entry.res) {
    opts.log(`${entry.req.method} ${entry.req.url.split('?')[0]} ${entry.res.statusCode} ${entry.responseTime!.toFixed(1)}ms`);
  }
}

/**
 * The real embedded server, in-process, on a random loopback port: with an in-memory SQLite
 * database, or (CHAMBERCTL_TEST_BACKEND=postgres) a PostgreSQL database of its own, dropped
 * at close.
 */
export async function startTestServer(
  opts: {
    now?: () => Date;
    seed?: 'demo' | 'none';
    dbPath?: string;
    /** A line per request, `GET /v2/chambers 200 1.2ms` (the path without its query). */
    log?: (line: string) => void;
    /** Every line of the server's log, JSON as pino writes it. */
    rawLog?: (line: string) => void;
    metrics?: boolean;
    /** serve --trust-proxy, as parseTrustProxy gives it. */
    trustProxy?: StartOptions['trustProxy'];
    /** serve --quiet: no line per request (failures, refusals and the server's own lines only). */
    quiet?: boolean;
    /** `debug` adds the lines of health probes that answer 200. */
    logLevel?: 'debug' | 'info';
    /** serve --header-timeout and --max-connections. */
    connections?: StartOptions['connections'];
  } = {},
): Promise<TestServer> {
  const source = `in-process-${process.pid}-${++servers}`;
  noteSecret(TEST_CLIENT_SECRET);
  let db: TestDatabase | undefined;
  if (TEST_BACKEND === 'postgres' && !opts.dbPath) db = await createTestDatabase('chamberctl_srv');
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    dbPath: opts.dbPath ?? db?.url ?? ':memory:',
    seed: opts.seed ?? 'demo',
    clientId: TEST_CLIENT_ID,
    clientSecret: TEST_CLIENT_SECRET,
    now: opts.now,
    metrics: opts.metrics,
    trustProxy: opts.trustProxy,
    connections: opts.connections,
    // always logged: the end of the run scans every line for secrets (run-logs.ts)
    logging: { destination: { write: (line: string) => logTo(opts, source, line) }, format: 'json' as const, requests: !opts.quiet, level: opts.logLevel },
  }).catch(async (err: unknown) => {
    await db?.drop();
    throw err;
  });
  const pg = server.store instanceof PgStorage ? server.store : undefined;
  const conformance = new Conformance(server.baseUrl, generatedDocuments(server.baseUrl, { metrics: opts.metrics }));
  watchAnswers(server.app.server, conformance);
  return {
    baseUrl: server.baseUrl,
    clientId: TEST_CLIENT_ID,
    clientSecret: TEST_CLIENT_SECRET,
    server,
    backend: pg ? 'postgres' : 'sqlite',
    writer: pg ?? server.storage!,
    async rows(table) {
      if (!/^\w+$/.test(table)) throw new Error(`not a table name: ${table}`);
      const rows = pg ? await pg.pool.query(`SELECT * FROM ${table}`) : server.storage!.db.prepare(`SELECT * FROM ${table}`).all();
      return (rows as Record<string, unknown>[]).map(hex);
    },
    tokenRequests: () => server.stats.tokenRequests,
    conformance,
    async close() {
      await server.close();
      await db?.drop();
      const { problems } = conformance;
      if (problems.length) {
        throw new Error(`${problems.length} of ${conformance.checked} answers do not conform to the server's OpenAPI document:\n${problems.slice(0, 20).join('\n')}`);
      }
    },
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
  const token = ((await res.json()) as { access_token: string }).access_token;
  noteSecret(token);
  return token;
}
