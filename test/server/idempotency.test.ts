import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../../src/server/auth/secrets.js';
import { noteSecret } from '../helpers/run-logs.js';
import { getToken, startTestServer, type TestServer } from '../helpers/server.js';

// Idempotency-Key on the v2 POSTs, on the backend under test (docs/server-behaviour.md#idempotency).
let t: TestServer;
let token: string;
let now = new Date('2026-03-01T10:00:00Z');

beforeAll(async () => {
  t = await startTestServer({ seed: 'none', now: () => now });
  token = await getToken(t.baseUrl);
});
afterAll(() => t.close());

const hq = (name: string) => ({ name, type: 'hq', address: { street: '1 Quay', city: 'Ghent', country: 'BE' } });

async function post(path: string, body: unknown, key?: string, bearer = token) {
  const res = await fetch(`${t.baseUrl}/v2${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', ...(key !== undefined ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, location: res.headers.get('location'), replayed: res.headers.get('idempotent-replayed'), body: (await res.json()) as Record<string, unknown> };
}
const count = async (table: string) => (await t.rows(table)).length;

describe('Idempotency-Key', () => {
  it('answers a repeated chamber POST with the first answer and creates one chamber', async () => {
    const before = await count('chambers');
    const first = await post('/chambers', hq('Once Chamber'), 'key-chamber-1');
    expect(first.status).toBe(201);
    expect(first.replayed).toBeNull();
    const again = await post('/chambers', hq('Once Chamber'), 'key-chamber-1');
    expect(again).toEqual({ ...first, replayed: 'true' });
    expect(await count('chambers')).toBe(before + 1);
  });

  it('answers a repeated member POST with the first 201, not a 409', async () => {
    const chamber = (await post('/chambers', hq('Members Chamber'))).body;
    const path = `/chambers/${chamber.id as string}/members`;
    const body = { name: 'Ada', email: 'ada@example.org', membership_type: 'standard' };
    const first = await post(path, body, 'key-member-1');
    expect(first.status).toBe(201);
    const again = await post(path, body, 'key-member-1');
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.location).toBe(first.location);
    // without the key, the same member is the usual 409
    expect((await post(path, body)).status).toBe(409);
    // a refused add stores nothing under its key: the same key, once the data is fixed, goes through
    const bad = await post(path, { ...body, email: 'not-an-address' }, 'key-member-2');
    expect(bad.status).toBe(422);
    expect((await post(path, { ...body, email: 'not-an-address' }, 'key-member-2')).status).toBe(422);
  });

  it('refuses the same key with another body, naming the header', async () => {
    await post('/chambers', hq('First Body'), 'key-reused');
    const other = await post('/chambers', hq('Second Body'), 'key-reused');
    expect(other.status).toBe(422);
    expect(Object.keys(other.body.fields as object)).toEqual(['Idempotency-Key']);
  });

  it('refuses a malformed key and creates nothing', async () => {
    const before = await count('chambers');
    expect((await post('/chambers', hq('Bad Key'), 'x'.repeat(256))).status).toBe(400);
    expect((await post('/chambers', hq('Bad Key'), 'has space')).status).toBe(400);
    expect(await count('chambers')).toBe(before);
  });

  it('runs concurrent repeats of one key into exactly one chamber', async () => {
    const before = await count('chambers');
    const answers = await Promise.all(Array.from({ length: 12 }, () => post('/chambers', hq('Raced Chamber'), 'key-raced')));
    const ids = new Set(answers.map((a) => a.body.id));
    expect(answers.every((a) => a.status === 201 || a.status === 409)).toBe(true);
    expect(ids.size).toBeLessThanOrEqual(2); // one id, plus undefined for an "in progress" 409
    expect(await count('chambers')).toBe(before + 1);
  });

  it('belongs to its client: the same key from another client is another request', async () => {
    const secret = 'OtherWriterSecret0123456789abcd';
    noteSecret(secret);
    await t.server.store.addClient('other-writer', await hashSecret(secret), 'write', now);
    const res = await fetch(`${t.baseUrl}/v2/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'other-writer', client_secret: secret }),
    });
    const other = ((await res.json()) as { access_token: string }).access_token;
    noteSecret(other);
    const before = await count('chambers');
    // the same key and the same body from two clients: two chambers, neither a replay
    const mine = await post('/chambers', hq('Shared Key Chamber'), 'key-shared');
    const theirs = await post('/chambers', hq('Shared Key Chamber'), 'key-shared', other);
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect([mine.replayed, theirs.replayed]).toEqual([null, null]);
    // the same key with another body from the other client: not a 422, its own request
    const otherBody = await post('/chambers', hq('Another Body'), 'key-mine-only', other);
    const mineAgain = await post('/chambers', hq('Mine Only'), 'key-mine-only');
    expect([otherBody.status, mineAgain.status]).toEqual([201, 201]);
    // and each client's repeat replays its own first answer
    const mineRepeat = await post('/chambers', hq('Shared Key Chamber'), 'key-shared');
    const theirsRepeat = await post('/chambers', hq('Shared Key Chamber'), 'key-shared', other);
    expect([mineRepeat.body.id, theirsRepeat.body.id]).toEqual([mine.body.id, theirs.body.id]);
    expect([mineRepeat.replayed, theirsRepeat.replayed]).toEqual(['true', 'true']);
    expect(await count('chambers')).toBe(before + 4);
  });

  it('compares the body as sent: the same bytes replay, the same JSON written otherwise is another request', async () => {
    const send = (raw: string) =>
      fetch(`${t.baseUrl}/v2/chambers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': 'key-bytes' },
        body: raw,
      });
    const raw = JSON.stringify(hq('Bytes Chamber'));
    const first = await send(raw);
    expect(first.status).toBe(201);
    const again = await send(raw);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const spaced = await send(JSON.stringify(hq('Bytes Chamber'), null, 2));
    expect(spaced.status).toBe(422);
  });

  it('forgets a key after 24 hours', async () => {
    const first = await post('/chambers', hq('Day Old'), 'key-aging');
    now = new Date(now.getTime() + 24 * 3600 * 1000 + 1000);
    token = await getToken(t.baseUrl); // the old token has expired too
    const later = await post('/chambers', hq('Day Old'), 'key-aging');
    expect(later.status).toBe(201);
    expect(later.body.id).not.toBe(first.body.id);
  });
});
