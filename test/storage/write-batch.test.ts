import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WriteBatcher } from '../../src/storage/sqlite/write-batch.js';
import { Storage } from '../../src/storage/sqlite/storage.js';
import { buildFixture } from '../helpers/fixture.js';
import { call } from '../helpers/http.js';
import { getToken, startTestServer, type TestServer } from '../helpers/server.js';

describe('WriteBatcher', () => {
  it('runs the writes of one event-loop turn in one transaction, each with its own result', async () => {
    let transactions = 0;
    const b = new WriteBatcher((fn) => {
      transactions++;
      fn();
    });
    const results = await Promise.allSettled([
      b.run(() => 1),
      b.run(() => {
        throw new Error('bad row');
      }),
      b.run(() => 3),
    ]);
    expect(transactions).toBe(1);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(results[0]).toMatchObject({ value: 1 });
    expect(results[2]).toMatchObject({ value: 3 });
    await b.run(() => 4);
    expect(transactions).toBe(2);
  });

  it('rejects every write of a batch whose commit fails', async () => {
    const b = new WriteBatcher(() => {
      throw new Error('disk full');
    });
    const results = await Promise.allSettled([b.run(() => 1), b.run(() => 2)]);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
  });

  it('commits real rows: a failed statement does not undo the others', async () => {
    const s = new Storage(':memory:');
    const { big } = await buildFixture(s, { members: 0 });
    const b = new WriteBatcher((fn) => s.transaction(fn));
    const add = (email: string) =>
      b.run(() => s.addMember({ chamberId: big.id, input: { name: 'X', email, phone: null, membership_type: 'standard' }, now: new Date(), audit: null }));
    const results = await Promise.allSettled([
      add('a@example.org'),
      b.run(() => s.db.prepare('INSERT INTO members (id) VALUES (1)').run()), // violates NOT NULL
      add('b@example.org'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(s.listMembers(big.id, { page: 1, perPage: 10 }).total).toBe(2);
    s.close();
  });
});

describe('concurrent POSTs through the group commit', () => {
  let srv: TestServer;
  let token: string;
  let chamber: string;
  beforeAll(async () => {
    srv = await startTestServer({ seed: 'none' });
    chamber = (await buildFixture(srv.server.storage!, { members: 0 })).big.id;
    token = await getToken(srv.baseUrl);
  });
  afterAll(() => srv.close());

  it('creates each distinct e-mail once and answers the rest 409', async () => {
    const emails = Array.from({ length: 40 }, (_, i) => `user${i % 10}@example.org`.replace('user1@', i % 20 === 1 ? 'USER1@' : 'user1@'));
    const answers = await Promise.all(
      emails.map((email, i) =>
        call(srv.baseUrl, 'POST', `/v2/chambers/${chamber}/members`, { token, body: { name: `N${i}`, email, membership_type: 'standard' } }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(30);
    const list = await call(srv.baseUrl, 'GET', `/v2/chambers/${chamber}/members?per_page=100`, { token });
    expect(list.body.meta.total).toBe(10);
    expect(new Set(list.body.data.map((m: { email: string }) => m.email.toLowerCase())).size).toBe(10);
  });
});
