// --pool-size bounds every connection an instance opens to PostgreSQL (decisions.md, "A
// shared deployment"): lists, writes and lookups by key under a concurrent load, sampled in
// pg_stat_activity throughout. Operators size max_connections from this number.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { call } from '../helpers/http.js';
import { createTestDatabase, PG_ADMIN_URL, type TestDatabase } from '../helpers/postgres.js';

const POOL = 3;
let db: TestDatabase;
let server: RunningServer;
let token: string;

beforeAll(async () => {
  db = await createTestDatabase('chamberctl_pool');
  server = await startServer({ host: '127.0.0.1', port: 0, dbPath: db.url, poolSize: POOL, seed: 'demo', clientId: 'pool', clientSecret: 'PoolSecret0123456789abc' });
  const t = await call(server.baseUrl, 'POST', '/v2/auth/token', { body: { grant_type: 'client_credentials', client_id: 'pool', client_secret: 'PoolSecret0123456789abc' } });
  token = t.body.access_token as string;
}, 60_000);
afterAll(async () => {
  await server?.close();
  await db?.drop();
});

describe(`serve --pool-size ${POOL} on PostgreSQL`, () => {
  it('never has more connections open than the pool size, lookups included', async () => {
    const admin = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => undefined });
    const samples: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const [row] = await admin<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = ${db.name}`;
        samples.push(row!.n);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    try {
      const chambers = (await call(server.baseUrl, 'GET', '/v2/chambers?per_page=20', { token })).body.data as { id: string }[];
      // lists, lookups by key and writes, 24 at a time
      await Promise.all(
        Array.from({ length: 24 }, async (_, w) => {
          for (let i = 0; i < 15; i++) {
            const id = chambers[(w + i) % chambers.length]!.id;
            const kind = (w + i) % 3;
            const r =
              kind === 0
                ? await call(server.baseUrl, 'GET', `/v2/chambers/${id}/members?sort=-name&page=${1 + (i % 3)}`, { token })
                : kind === 1
                  ? await call(server.baseUrl, 'GET', `/v2/chambers/${id}`, { token })
                  : await call(server.baseUrl, 'POST', `/v2/chambers/${id}/members`, { token, body: { name: `Pool ${w}-${i}`, email: `pool${w}-${i}@example.org`, membership_type: 'standard' } });
            expect([200, 201]).toContain(r.status);
          }
        }),
      );
    } finally {
      sampling = false;
      await sampler;
      await admin.end();
    }
    expect(samples.length).toBeGreaterThan(10);
    expect(Math.max(...samples)).toBeLessThanOrEqual(POOL);
    expect(Math.max(...samples)).toBeGreaterThanOrEqual(2); // the load did use the pool and the lookups' connection
  }, 60_000);
});
