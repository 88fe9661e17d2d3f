// Several `chamberctl serve` processes on one PostgreSQL database, as a team deploys them
// behind a load balancer: one truth whichever instance a request reaches. And the database
// going away under a running instance (through a TCP fault proxy the test can cut): 503 JSON
// answers and an unhealthy /healthz, never a crash or a hang, and recovery on its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedIn, type LoggedIn } from '../commands/logged-in.js';
import { csvFile, HEADER, summaryOf, validRows } from '../import/e2e-helpers.js';
import { makeTempDir, removeTempDir } from '../helpers/cli.js';
import { call } from '../helpers/http.js';
import { createTestDatabase, PG_ADMIN_URL, type TestDatabase } from '../helpers/postgres.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { startTcpFaultProxy } from '../helpers/tcp-fault-proxy.js';

const CLIENT = { id: 'teamapp', secret: 'TeamSecret0123456789abcdef' };
const creds = { grant_type: 'client_credentials', client_id: CLIENT.id, client_secret: CLIENT.secret };

let db: TestDatabase;
let dataDir: string;
let a: ServeProcess;
let b: ServeProcess;

async function serveOn(url: string, name: string, extra: string[] = []): Promise<ServeProcess> {
  return startServeProcess(
    ['--port', '0', '--db', url, '--client-id', CLIENT.id, '--client-secret', CLIENT.secret, '--quiet', '--json', ...extra],
    { CHAMBERCTL_CONFIG_DIR: `${dataDir}/config-${name}` },
  );
}

async function token(baseUrl: string, version = 'v2'): Promise<string> {
  const r = await call(baseUrl, 'POST', `/${version}/auth/token`, { body: creds });
  expect(r.status).toBe(200);
  return r.body.access_token;
}

beforeAll(async () => {
  db = await createTestDatabase('chamberctl_team');
  dataDir = await makeTempDir('chamberctl-team-');
  // two instances starting together on a new database: one migrates and seeds, both serve
  [a, b] = await Promise.all([serveOn(db.url, 'a'), serveOn(db.url, 'b')]);
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await db?.drop();
  await removeTempDir(dataDir);
});

describe('two instances on one PostgreSQL database', () => {
  it('print the database without its password, and agree on the seeded data', async () => {
    for (const s of [a, b]) expect(JSON.parse(s.output().stdout.trim().split('\n')[0]!).database).toMatch(/^postgres:\/\//);
    const [ta, tb] = await Promise.all([token(a.baseUrl), token(b.baseUrl)]);
    const la = await call(a.baseUrl, 'GET', '/v2/chambers?per_page=100&sort=name', { token: ta });
    const lb = await call(b.baseUrl, 'GET', '/v2/chambers?per_page=100&sort=name', { token: tb });
    expect(la.status).toBe(200);
    expect(la.body.meta.total).toBeGreaterThan(0);
    expect(lb.text).toBe(la.text);
  });

  it('a token issued by one instance is accepted by the other, on its version only', async () => {
    const t = await token(a.baseUrl);
    expect((await call(b.baseUrl, 'GET', '/v2/chambers?per_page=1', { token: t })).status).toBe(200);
    expect((await call(b.baseUrl, 'GET', '/v1/chambers?per_page=1', { token: t })).status).toBe(401);
  });

  it('concurrent adds of one address through both instances: exactly one 201, the rest 409', async () => {
    const [ta, tb] = await Promise.all([token(a.baseUrl), token(b.baseUrl)]);
    const hq = await call(a.baseUrl, 'POST', '/v2/chambers', {
      token: ta,
      body: { name: 'Race HQ', type: 'hq', address: { street: '1 Quay', city: 'Ghent', country: 'BE' } },
    });
    expect(hq.status).toBe(201);
    const member = { name: 'Racer', email: 'race@example.org', membership_type: 'standard' };
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(i % 2 ? a.baseUrl : b.baseUrl, 'POST', `/v2/chambers/${hq.body.id}/members`, {
          token: i % 2 ? ta : tb,
          body: { ...member, email: i % 3 ? member.email : member.email.toUpperCase() },
        }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, ...Array(19).fill(409)]);
    const list = await call(b.baseUrl, 'GET', `/v2/chambers/${hq.body.id}/members`, { token: tb });
    expect(list.body.meta.total).toBe(1);
  });

  it('an Idempotency-Key replayed to the other instance gets the first answer; raced through both, one chamber', async () => {
    const [ta, tb] = await Promise.all([token(a.baseUrl), token(b.baseUrl)]);
    const body = { name: 'Keyed HQ', type: 'hq', address: { street: '2 Quay', city: 'Ghent', country: 'BE' } };
    const first = await call(a.baseUrl, 'POST', '/v2/chambers', { token: ta, body, headers: { 'idempotency-key': 'team-key-1' } });
    expect(first.status).toBe(201);
    const again = await call(b.baseUrl, 'POST', '/v2/chambers', { token: tb, body, headers: { 'idempotency-key': 'team-key-1' } });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.body).toEqual(first.body);

    const raced = { ...body, name: 'Raced Keyed HQ' };
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        call(i % 2 ? a.baseUrl : b.baseUrl, 'POST', '/v2/chambers', { token: i % 2 ? ta : tb, body: raced, headers: { 'idempotency-key': 'team-key-2' } }),
      ),
    );
    expect(answers.every((r) => r.status === 201)).toBe(true);
    expect(new Set(answers.map((r) => r.body.id)).size).toBe(1);
    const named = await call(b.baseUrl, 'GET', '/v2/chambers?per_page=100&sort=-created_at&filter[type]=hq', { token: tb });
    expect(named.body.data.filter((c: { name: string }) => c.name === 'Raced Keyed HQ')).toHaveLength(1);
  });

  it('members import spread over both instances: the exact count, no duplicates, totals that match', async () => {
    const ta = await token(a.baseUrl);
    const hq = await call(a.baseUrl, 'POST', '/v2/chambers', {
      token: ta,
      body: { name: 'Import HQ', type: 'hq', address: { street: '1 Quay', city: 'Ghent', country: 'BE' } },
    });
    const clis: LoggedIn[] = [];
    try {
      for (const s of [a, b]) clis.push(await loggedIn({ baseUrl: s.baseUrl, clientId: CLIENT.id, clientSecret: CLIENT.secret }));
      // two imports at once, one per instance, with overlapping rows (0-299 and 200-499)
      const files = await Promise.all([
        csvFile(clis[0]!.dir, 'first.csv', HEADER + validRows(300, 'team', 0)),
        csvFile(clis[1]!.dir, 'second.csv', HEADER + validRows(300, 'team', 200)),
      ]);
      const runs = await Promise.all(clis.map((c, i) => c.run(['members', 'import', hq.body.id, files[i]!, '--json'])));
      for (const r of runs) expect(r.exitCode, r.stderr).toBe(0);
      const summaries = runs.map((r) => summaryOf(r.stdout));
      expect(summaries[0]!.created + summaries[1]!.created).toBe(500);
      expect(summaries[0]!.skipped + summaries[1]!.skipped).toBe(100);
      const emails: string[] = [];
      for (let page = 1; ; page++) {
        const r = await call(b.baseUrl, 'GET', `/v2/chambers/${hq.body.id}/members?per_page=100&page=${page}`, { token: await token(b.baseUrl) });
        emails.push(...r.body.data.map((m: { email: string }) => m.email));
        expect(r.body.meta.total).toBe(500);
        if (r.body.data.length < 100) break;
      }
      expect(emails).toHaveLength(500);
      expect(new Set(emails).size).toBe(500);
    } finally {
      for (const c of clis) await c.cleanup();
    }
  });
});

describe('the database going away under a running instance', () => {
  it('gives 503 JSON answers and an unhealthy /healthz, never a hang, then recovers on its own', async () => {
    const admin = new URL(PG_ADMIN_URL);
    const relay = await startTcpFaultProxy({ host: admin.hostname, port: Number(admin.port || 5432) });
    const viaRelay = new URL(db.url);
    viaRelay.port = String(relay.port);
    const c = await serveOn(viaRelay.toString(), 'relay', ['--seed', 'none']);
    try {
      const t = await token(c.baseUrl);
      expect((await call(c.baseUrl, 'GET', '/healthz')).status).toBe(200);
      expect((await call(c.baseUrl, 'GET', '/v2/chambers', { token: t })).status).toBe(200);

      await relay.setMode('refuse'); // every connection dropped, new ones refused
      const started = Date.now();
      const during = await Promise.all([
        call(c.baseUrl, 'GET', '/v2/chambers', { token: t }),
        call(c.baseUrl, 'POST', '/v2/chambers', { token: t, body: { name: 'Down', type: 'hq', address: { street: 's', city: 'c', country: 'BE' } } }),
        call(c.baseUrl, 'GET', '/healthz'),
        call(c.baseUrl, 'GET', '/v2/chambers/ch_gone', { token: t }), // a lookup by key, on the one pool
      ]);
      expect(Date.now() - started).toBeLessThan(15_000);
      for (const r of during) {
        expect(r.status).toBe(503);
        expect(r.headers.get('content-type')).toMatch(/application\/json/);
        expect(JSON.stringify(r.body)).not.toMatch(/postgres:|ECONN|at \w+ \(/);
      }
      expect(during[0]!.body.error).toMatch(/database is unavailable/);

      await relay.setMode('pass');
      let health = 0;
      for (let i = 0; i < 50 && health !== 200; i++) {
        health = (await call(c.baseUrl, 'GET', '/healthz')).status;
        if (health !== 200) await new Promise((r) => setTimeout(r, 200));
      }
      expect(health).toBe(200);
      expect((await call(c.baseUrl, 'GET', '/v2/chambers', { token: t })).status).toBe(200);
      expect((await call(c.baseUrl, 'GET', '/v2/chambers/ch_gone', { token: t })).status).toBe(404);
      expect(c.proc.exitCode).toBeNull(); // still running
    } finally {
      await c.stop();
      await relay.close();
    }
  }, 60_000);
});
