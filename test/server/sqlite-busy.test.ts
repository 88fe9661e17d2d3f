// A SQLite database whose write lock another process holds past the busy timeout (a `sync
// pull` writing the copy that `serve` serves): writes are refused 503 with Retry-After, as
// when a PostgreSQL server goes away, and reads go on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/storage/sqlite/database.js';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { getToken, startTestServer } from '../helpers/server.js';

const dir = mkdtempSync(join(tmpdir(), 'chamberctl-busy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a SQLite database locked by another writer', () => {
  it('answers writes 503 with Retry-After once the busy timeout passes, reads as usual, and writes again when the lock goes', async () => {
    const dbPath = join(dir, 'dir.db');
    const server = await startTestServer({ dbPath, seed: 'none' });
    const other = openDatabase(dbPath);
    try {
      const token = await getToken(server.baseUrl, 'v2');
      const chamber = await call(server.baseUrl, 'POST', '/v2/chambers', {
        token,
        body: { name: 'Locked HQ', type: 'hq', address: { street: '1 St', city: 'Bonn', country: 'DE' } },
      });
      expect(chamber.status).toBe(201);
      const member = (email: string) =>
        call(server.baseUrl, 'POST', `/v2/chambers/${chamber.body.id}/members`, {
          token,
          body: { name: 'Ann Lee', email, membership_type: 'standard' },
        });

      other.exec('BEGIN IMMEDIATE'); // holds the write lock
      const refused = await member('ann@example.org');
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.body).toEqual({ error: 'the database is unavailable; try again shortly' });
      expect((await call(server.baseUrl, 'GET', `/v2/chambers/${chamber.body.id}`, { token })).status).toBe(200);
      other.exec('ROLLBACK');

      expect((await member('ann@example.org')).status).toBe(201);
    } finally {
      other.close();
      await server.close();
    }
  }, 20_000);
});
