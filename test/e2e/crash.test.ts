// kill -9 of `serve` in the middle of concurrent writes: the SQLite file is intact, every
// write that was acknowledged (201) is there, and the totals that triggers keep match the
// rows. (Commits are durable against a crash of the process: WAL, synchronous=NORMAL.)
import { openDatabase } from '../../src/storage/sqlite/database.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../helpers/cli.js';
import { call } from '../helpers/http.js';
import { startServeProcess } from '../helpers/serve-process.js';

const CLIENT = { id: 'crashtest', secret: 'CrashSecret0123456789abc' };
let dir: string;
beforeAll(async () => {
  dir = await makeTempDir('chamberctl-crash-');
});
afterAll(() => removeTempDir(dir));

describe('a server killed under writes', () => {
  it('loses no acknowledged write and leaves a consistent database', async () => {
    const db = join(dir, 'crash.db');
    const serve = await startServeProcess(
      ['--port', '0', '--db', db, '--seed', 'none', '--client-id', CLIENT.id, '--client-secret', CLIENT.secret, '--quiet'],
      { CHAMBERCTL_CONFIG_DIR: join(dir, 'config') },
    );
    const token = (
      await call(serve.baseUrl, 'POST', '/v2/auth/token', { body: { grant_type: 'client_credentials', client_id: CLIENT.id, client_secret: CLIENT.secret } })
    ).body.access_token as string;
    const hq = await call(serve.baseUrl, 'POST', '/v2/chambers', {
      token,
      body: { name: 'Crash HQ', type: 'hq', address: { street: '1 Quay', city: 'Ghent', country: 'BE' } },
    });
    const acknowledged: string[] = [];
    let killed = false;
    let n = 0;
    const writer = async () => {
      while (!killed) {
        const i = n++;
        try {
          const r = await call(serve.baseUrl, 'POST', `/v2/chambers/${hq.body.id}/members`, {
            token,
            body: { name: `Person ${i}`, email: `p${i}@example.org`, membership_type: 'standard' },
          });
          if (r.status === 201) acknowledged.push(r.body.id);
        } catch {
          return; // the server is gone
        }
      }
    };
    const writers = Array.from({ length: 16 }, writer);
    while (acknowledged.length < 300) await new Promise((r) => setTimeout(r, 5));
    serve.proc.kill('SIGKILL');
    killed = true;
    await Promise.all(writers);
    await serve.proc.catch(() => undefined);

    const sqlite = openDatabase(db);
    try {
      expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
      const ids = new Set((sqlite.prepare('SELECT id FROM members').all() as { id: string }[]).map((r) => r.id));
      expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
      const counted = sqlite.prepare('SELECT coalesce(sum(n), 0) AS n FROM member_counts WHERE chamber_id = ?').get(hq.body.id) as { n: number };
      expect(counted.n).toBe(ids.size);
      const emails = sqlite.prepare('SELECT count(DISTINCT email_key) AS n FROM members').get() as { n: number };
      expect(emails.n).toBe(ids.size);
    } finally {
      sqlite.close();
    }
  }, 60_000);
});
