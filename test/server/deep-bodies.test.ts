import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture } from '../helpers/fixture.js';
import { call, type Reply } from '../helpers/http.js';
import { answerWithoutBody } from '../helpers/raw-http.js';
import { getToken, startTestServer, type TestServer } from '../helpers/server.js';

// A body nested 500,000 levels deep (1 MB, under the 1 MiB limit) once held the event loop for
// most of a second per request, without a token (docs/server-behaviour.md#limits): each route
// shape must answer it without parsing it, and /livez must stay as quick meanwhile as while
// ordinary bodies of the same size are being read. The baseline is measured in the same run,
// in turns with the deep rounds; the cost is compared in CPU time, which a busy machine's
// other processes do not change (a deep 404 cost 4.9 times a flat body's before).

const LEVELS = 500_000;
const DEEP = '['.repeat(LEVELS) + ']'.repeat(LEVELS);
const address = { street: '1 St', city: 'Bonn', country: 'DE' };
/** A flat body of the same size: parsed, then refused by validation (the name is too long). */
const FLAT = JSON.stringify({ name: 'x'.repeat(DEEP.length - 80), type: 'hq', address });
const json = { 'content-type': 'application/json' };

let srv: TestServer;
let v2: string;
let hq: string;
const logs: string[] = [];
beforeAll(async () => {
  srv = await startTestServer({ seed: 'none', rawLog: (line) => logs.push(line) });
  hq = (await buildFixture(srv.writer, { members: 1 })).big.id;
  v2 = await getToken(srv.baseUrl, 'v2');
});
afterAll(() => srv.close());

let keys = 0;
const post = (path: string, raw: string, headers: Record<string, string> = json) =>
  call(srv.baseUrl, 'POST', path, { token: v2, raw, headers: { ...headers, 'idempotency-key': `deep-${++keys}` } });

/** Each shape a route can have, with the deep body, and the answer it must get. */
const SHAPES: [string, () => Promise<Reply>, number][] = [
  ['a path no route serves', () => call(srv.baseUrl, 'POST', '/anything', { raw: DEEP, headers: { 'content-type': 'text/plain' } }), 404],
  ['an unknown path under a version', () => call(srv.baseUrl, 'POST', '/v2/nothing', { raw: DEEP, headers: json }), 404],
  ['the token endpoint', () => call(srv.baseUrl, 'POST', '/v2/auth/token', { raw: DEEP, headers: json }), 413],
  ['POST /v2/chambers without a token', () => call(srv.baseUrl, 'POST', '/v2/chambers', { raw: DEEP, headers: json }), 401],
  ['POST /v2/chambers with a write token and an Idempotency-Key', () => post('/v2/chambers', DEEP), 400],
  ['POST members with a write token and an Idempotency-Key', () => post(`/v2/chambers/${hq}/members`, DEEP), 400],
  ['POST /v2/chambers as text/plain', () => post('/v2/chambers', DEEP, { 'content-type': 'text/plain' }), 415],
  ['PUT /v2/chambers/{id}', () => call(srv.baseUrl, 'PUT', `/v2/chambers/${hq}`, { token: v2, raw: DEEP, headers: json }), 405],
  ['PATCH /v2/chambers/{id}', () => call(srv.baseUrl, 'PATCH', `/v2/chambers/${hq}`, { token: v2, raw: DEEP, headers: json }), 405],
  ['POST /v1/chambers', () => call(srv.baseUrl, 'POST', '/v1/chambers', { raw: DEEP, headers: json }), 405],
];

const IN_FLIGHT = 4;

interface Round {
  /** Wall time of IN_FLIGHT concurrent requests. */
  ms: number;
  /** CPU time this process (client and server) spent on them: what other processes on a busy machine do not change. */
  cpuMs: number;
  /** The slowest /livez meanwhile. */
  livezMs: number;
  statuses: number[];
}

async function round(send: () => Promise<Reply>): Promise<Round> {
  let done = false;
  let livezMs = 0;
  const probe = (async () => {
    while (!done) {
      const t = performance.now();
      const r = await fetch(`${srv.baseUrl}/livez`);
      await r.text();
      livezMs = Math.max(livezMs, performance.now() - t);
    }
  })();
  const cpu = process.cpuUsage();
  const t = performance.now();
  const answers = await Promise.all(Array.from({ length: IN_FLIGHT }, send));
  const ms = performance.now() - t;
  const used = process.cpuUsage(cpu);
  done = true;
  await probe;
  return { ms, cpuMs: (used.user + used.system) / 1000, livezMs, statuses: answers.map((a) => a.status) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Rounds of the deep body and of the flat one taken in turn (so that both meet the same machine), as medians. */
async function compare(send: () => Promise<Reply>): Promise<{ deep: Round; flat: Round }> {
  const deep: Round[] = [];
  const flat: Round[] = [];
  for (let i = 0; i < 3; i++) {
    flat.push(await round(() => post('/v2/chambers', FLAT)));
    deep.push(await round(send));
  }
  const med = (rs: Round[]): Round => ({
    ms: median(rs.map((r) => r.ms)),
    cpuMs: median(rs.map((r) => r.cpuMs)),
    livezMs: median(rs.map((r) => r.livezMs)),
    statuses: rs.flatMap((r) => r.statuses),
  });
  return { deep: med(deep), flat: med(flat) };
}

describe('a body nested 500,000 levels deep', () => {
  it.each(SHAPES)('%s: answered at once with its status, no 5xx, no stack', async (_what, send, status) => {
    const r = await send();
    expect(r.status).toBe(status);
    expect(r.text).not.toMatch(/at .+\(.+:\d+:\d+\)|RangeError|stack/i);
    if (status === 400) expect(r.body.error).toBe('the request body nests arrays or objects deeper than 32 levels');
  });

  it('every route shape costs no more than a flat body of its size, and /livez stays as quick', async () => {
    for (const [what, send, status] of SHAPES) {
      const { deep, flat } = await compare(send);
      expect(new Set(flat.statuses)).toEqual(new Set([422]));
      expect(new Set(deep.statuses), what).toEqual(new Set([status]));
      // once, the 404 alone cost 0.74 s a request, and /livez took 2.8 s behind four of them
      expect(deep.cpuMs, `${what}: ${deep.cpuMs.toFixed(0)} ms of CPU for ${IN_FLIGHT}, against ${flat.cpuMs.toFixed(0)} ms for flat bodies`).toBeLessThan(2 * flat.cpuMs);
      expect(deep.livezMs, `${what}: /livez took ${deep.livezMs.toFixed(0)} ms, against ${flat.livezMs.toFixed(0)} ms beside flat bodies (a round of them: ${flat.ms.toFixed(0)} ms)`).toBeLessThan(Math.max(3 * flat.livezMs, flat.ms));
    }
  });

  it('nothing answered 500 or logged a stack', () => {
    expect(logs.join('\n')).not.toMatch(/answered 500|RangeError|Maximum call stack/);
  });
});

describe('answered before the body is read', () => {
  // the request promises a megabyte it never sends: an answer means the body was not waited for
  const head = (line: string, headers: string) => `${line} HTTP/1.1\r\nHost: x\r\nContent-Length: ${DEEP.length}\r\n${headers}\r\n`;
  it.each([
    ['POST /anything', 'content-type: application/json\r\n', 404],
    ['POST /v2/nothing', 'content-type: text/plain\r\n', 404],
    ['POST /v2/auth/token', 'content-type: application/json\r\n', 413],
    ['POST /v2/auth/token', 'content-type: text/plain\r\n', 415],
    ['POST /v2/chambers', 'content-type: application/json\r\n', 401],
    ['POST /v2/chambers', 'content-type: text/plain\r\nauthorization: Bearer TOKEN\r\n', 415],
    ['POST /v2/chambers', 'authorization: Bearer TOKEN\r\n', 415],
    ['PATCH /v2/chambers/x', 'content-type: application/json\r\nauthorization: Bearer TOKEN\r\n', 405],
  ])('%s with %j', async (line, headers, status) => {
    const r = await answerWithoutBody(srv.baseUrl, head(line, headers.replace('TOKEN', v2)));
    expect(r.error).toBeUndefined();
    expect(r.status).toBe(status);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(r.body)).toHaveProperty('error');
  });
});

describe('the depth limit', () => {
  const nest = (levels: number) => '['.repeat(levels) + '"x"' + ']'.repeat(levels);

  it('32 levels are parsed (then judged as usual), 33 are a 400', async () => {
    // the object itself is the first level
    const at = await post('/v2/chambers', `{"name": ${nest(31)}, "type": "hq"}`);
    expect(at.status).toBe(422);
    expect(Object.keys(at.body.fields)).toContain('name');
    const over = await post('/v2/chambers', `{"name": ${nest(32)}, "type": "hq"}`);
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ error: 'the request body nests arrays or objects deeper than 32 levels' });
  });

  it('brackets inside strings, escaped quotes included, do not count', async () => {
    const name = `[{"\\"[[[${'['.repeat(100)}`;
    const r = await post('/v2/chambers', JSON.stringify({ name, type: 'hq', address }));
    expect(r.status).toBe(201);
    expect(r.body.name).toBe(name);
  });

  it('holds on the token endpoint too, OAuth-shaped', async () => {
    const r = await call(srv.baseUrl, 'POST', '/v2/auth/token', { raw: nest(40), headers: json });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'invalid_request', error_description: 'the request body nests arrays or objects deeper than 32 levels' });
  });
});
