import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { getToken, startTestServer } from '../helpers/server.js';

const dir = mkdtempSync(join(tmpdir(), 'chamberctl-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('persistence', () => {
  it('keeps data, clients and tokens across a restart', async () => {
    const dbPath = join(dir, 'nested', 'dir.db');
    const first = await startTestServer({ dbPath, seed: 'none' });
    const token = await getToken(first.baseUrl, 'v2');
    const created = await call(first.baseUrl, 'POST', '/v2/chambers', {
      token,
      body: { name: 'Persistent HQ', type: 'hq', address: { street: '1 St', city: 'Bonn', country: 'DE' } },
    });
    expect(created.status).toBe(201);
    await first.close();
    // personal data and secret hashes: readable by the owner only
    expect(statSync(dbPath).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'nested')).mode & 0o777).toBe(0o700);

    const second = await startTestServer({ dbPath, seed: 'demo' }); // an existing database is never re-seeded
    try {
      const r = await call(second.baseUrl, 'GET', `/v2/chambers/${created.body.id}`, { token });
      expect(r.status).toBe(200);
      expect(r.body).toEqual(created.body);
      expect((await call(second.baseUrl, 'GET', '/v2/chambers', { token })).body.meta.total).toBe(1);
    } finally {
      await second.close();
    }
  });
});
