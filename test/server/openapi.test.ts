// The published OpenAPI documents: what each version holds, and that they say exactly what the
// server accepts: values a document allows, the server takes; values the server refuses, the
// document refuses too (each probe is sent to the server and checked against the document).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { STARTING, StartingBody } from '../../src/contract/index.js';
import { checkRecordedExchanges, Conformance, generatedDocuments } from '../helpers/conformance.js';
import { call } from '../helpers/http.js';
import { getToken, startTestServer, type TestServer } from '../helpers/server.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const addFormats = addFormatsImport as unknown as (ajv: Ajv2020) => Ajv2020;

let srv: TestServer;
let token: string;
let chamberId: string;
const docs: Record<string, Json> = {};
beforeAll(async () => {
  srv = await startTestServer({ seed: 'demo' });
  token = await getToken(srv.baseUrl, 'v2');
  for (const v of ['v1', 'v2']) docs[v] = (await call(srv.baseUrl, 'GET', `/${v}/openapi.json`)).body;
  chamberId = (await call(srv.baseUrl, 'GET', '/v2/chambers?per_page=1', { token })).body.data[0].id;
});
afterAll(() => srv.close());

const operations = (doc: Json) =>
  Object.entries<Json>(doc.paths).flatMap(([path, item]) =>
    Object.entries<Json>(item)
      .filter(([method]) => ['get', 'post'].includes(method))
      .map(([method, op]) => ({ path, method, op })),
  );
const operation = (doc: Json, id: string) => operations(doc).find((o) => o.op.operationId === id)!;

function refs(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => refs(v, found));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') found.add(v);
      else refs(v, found);
    }
  }
  return found;
}

describe('the OpenAPI documents', () => {
  it.each(['v1', 'v2'])('%s: OpenAPI 3.1 at the server URL of its version', (v) => {
    expect(docs[v]!.openapi).toBe('3.1.0');
    expect(docs[v]!.servers).toEqual([expect.objectContaining({ url: `${srv.baseUrl}/${v}` })]);
    expect(docs[v]!.paths['/healthz'].servers).toEqual([expect.objectContaining({ url: srv.baseUrl })]);
  });

  it('each version holds only the operations it serves, each with a stable operationId (no /metrics without --metrics)', () => {
    const ids = (v: string) => operations(docs[v]!).map((o) => `${o.method.toUpperCase()} ${o.path} ${o.op.operationId}`).sort();
    expect(ids('v1')).toEqual([
      'GET /.well-known/oauth-authorization-server/v1 getAuthServerMetadata',
      'GET /chambers listChambers',
      'GET /chambers/{chamber_id}/members listMembers',
      'GET /chambers/{id} getChamber',
      'GET /healthz getHealth',
      'GET /livez getLive',
      'GET /openapi.json getOpenApiDocument',
      'POST /auth/token issueToken',
    ]);
    expect(ids('v2')).toEqual([
      'GET /.well-known/oauth-authorization-server/v2 getAuthServerMetadata',
      'GET /chambers listChambers',
      'GET /chambers/{chamber_id}/events listEvents',
      'GET /chambers/{chamber_id}/members listMembers',
      'GET /chambers/{chamber_id}/members/{member_id} getMember',
      'GET /chambers/{id} getChamber',
      'GET /healthz getHealth',
      'GET /livez getLive',
      'GET /openapi.json getOpenApiDocument',
      'POST /auth/token issueToken',
      'POST /chambers createChamber',
      'POST /chambers/{chamber_id}/members addMember',
    ]);
  });

  it.each(['v1', 'v2'])('%s: the discovery documents are its operations, answered as declared', async (v) => {
    const before = srv.conformance.checked;
    const meta = await call(srv.baseUrl, 'GET', `/.well-known/oauth-authorization-server/${v}`);
    expect(meta.status).toBe(200);
    expect(meta.body.issuer).toBe(`${srv.baseUrl}/${v}`);
    expect(operation(docs[v]!, 'getAuthServerMetadata').path).toBe(`/.well-known/oauth-authorization-server/${v}`);
    expect(docs[v]!.paths[`/.well-known/oauth-authorization-server/${v}`].servers).toEqual([expect.objectContaining({ url: srv.baseUrl })]);
    expect(operation(docs[v]!, 'getOpenApiDocument')).toMatchObject({ path: '/openapi.json', op: { security: [] } });
    // the conformance check finds it as an operation of its own version's document (a 200 of
    // no operation would pass unchecked)
    const c = new Conformance(srv.baseUrl, docs as never);
    const x = { method: 'GET', url: `/.well-known/oauth-authorization-server/${v}`, status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } };
    expect(c.check({ ...x, body: JSON.stringify(meta.body) })).toBeUndefined();
    expect(c.check({ ...x, body: JSON.stringify({ ...meta.body, issuer: 7 }) })).toMatch(/getAuthServerMetadata 200: data\/issuer must be string/);
    await vi.waitFor(() => expect(srv.conformance.checked).toBeGreaterThan(before));
    expect(srv.conformance.problems).toEqual([]);
  });

  it.each(['v1', 'v2'])('%s: every component is used, every tag defined, every operation tagged', (v) => {
    const doc = docs[v]!;
    const used = refs(doc);
    for (const [kind, entries] of Object.entries<Json>(doc.components)) {
      if (kind === 'securitySchemes') continue;
      for (const name of Object.keys(entries)) expect(used, `#/components/${kind}/${name} is unused`).toContain(`#/components/${kind}/${name}`);
    }
    const tags = doc.tags.map((t: Json) => t.name);
    for (const { op } of operations(doc)) {
      expect(op.tags.length).toBe(1);
      expect(tags).toContain(op.tags[0]);
    }
  });

  it.each(['v1', 'v2'])('%s: every e-mail address and country, sent or returned, has its format or pattern', (v) => {
    // every schema object with properties, wherever it is (components, parameters, bodies)
    const found: string[] = [];
    const walk = (x: unknown, at: string): void => {
      if (Array.isArray(x)) return x.forEach((y, i) => walk(y, `${at}/${i}`));
      if (!x || typeof x !== 'object') return;
      const props = (x as Json).properties;
      if (props && typeof props === 'object') {
        for (const [name, schema] of Object.entries<Json>(props)) {
          const text = JSON.stringify(schema);
          if (name === 'email') found.push(`${at} email ${/"format":"email"/.test(text)}`);
          if (name === 'country') found.push(`${at} country ${/"pattern":"\^\[A-Z(a-z)?\]\{2\}\$"/.test(text)}`);
        }
      }
      for (const [k, y] of Object.entries(x)) walk(y, `${at}/${k}`);
    };
    walk(docs[v], '#');
    expect(found.filter((f) => f.endsWith('false'))).toEqual([]);
    expect(found.map((f) => f.split(' ')[0]).sort()).toEqual(
      v === 'v1'
        ? ['#/components/schemas/Address', '#/components/schemas/Member']
        : ['#/components/schemas/Address', '#/components/schemas/ChamberCreate/properties/address', '#/components/schemas/Member', '#/components/schemas/MemberCreate'],
    );
  });

  it("v1's chamber has no include fields; v2's get embeds at most 100 of each", () => {
    expect(Object.keys(docs.v1!.components.schemas.Chamber.properties)).not.toContain('members');
    expect(docs.v1!.components.schemas.Event).toBeUndefined();
    const withIncludes = docs.v2!.components.schemas.ChamberWithIncludes.properties;
    expect(withIncludes.members).toMatchObject({ type: 'array', maxItems: 100, items: { $ref: '#/components/schemas/Member' } });
    expect(withIncludes.events).toMatchObject({ type: 'array', maxItems: 100 });
    expect(operation(docs.v2!, 'listChambers').op.responses['404']).toBeUndefined();
  });

  it('declares the Idempotency-Key, Location, WWW-Authenticate and both ways a client authenticates', () => {
    const add = operation(docs.v2!, 'addMember').op;
    expect(add.parameters.map((p: Json) => `${p.in} ${p.name}`)).toEqual(['path chamber_id', 'header Idempotency-Key']);
    // no example that /docs' "Try it out" would prefill: the same key with another body is a 422
    for (const id of ['addMember', 'createChamber']) {
      const key = operation(docs.v2!, id).op.parameters.find((p: Json) => p.name === 'Idempotency-Key');
      expect(key.description).toMatch(/such as `import-2026-03-01-row-17`/);
      expect(JSON.stringify(key)).not.toMatch(/"examples?":/);
    }
    expect(add.responses['201'].headers.Location).toBeTruthy();
    expect(docs.v2!.components.responses.Unauthorized.headers['WWW-Authenticate']).toBeTruthy();
    const token = operation(docs.v2!, 'issueToken').op;
    expect(token.security).toEqual([{}, { clientSecretBasic: [] }]);
    expect(docs.v2!.components.securitySchemes.clientSecretBasic).toMatchObject({ type: 'http', scheme: 'basic' });
    expect(Object.keys(docs.v2!.components.schemas.TokenRequest.properties)).toEqual(['grant_type', 'client_id', 'client_secret', 'scope']);
  });
});

describe('the documents say what the server accepts', () => {
  const ajv = addFormats(new Ajv2020({ strict: false }));

  /** Whether the document allows `raw` as the value of a query parameter (as OpenAPI reads a query). */
  function documentAllows(param: Json, raw: string): boolean {
    const schema = param.schema;
    // an integer, or one of several integer ranges (per_page)
    const integer = schema.type === 'integer' || (schema.anyOf?.length && schema.anyOf.every((s: Json) => s.type === 'integer'));
    const value = integer && /^-?\d+$/.test(raw) ? Number(raw) : schema.type === 'array' && param.explode === false ? raw.split(',') : raw;
    return ajv.validate(schema, value) as boolean;
  }

  const PROBES: Record<string, string[]> = {
    page: ['1', '2', '0', '-1', 'abc', '1.5', '', '9007199254740991', '9007199254740992'],
    per_page: ['1', '100', '101', '0', '-5', 'x', '', '1.5', '1e2', '007', '9007199254740991', '9007199254740992', '99999999999999999999999999'],
    'filter[type]': ['hq', 'subsidiary', 'HQ', 'bogus', ''],
    'filter[status]': ['active', 'upcoming', 'past', 'bogus', ''],
    sort: ['name', '-name', 'created_at', '-joined_at', 'joined_at', 'bogus', '--name', 'id', ''],
    include: ['members', 'events', 'members,events', 'bogus', 'members,bogus'],
    'filter[date_from]': ['2026-03-01', '2026-03-01T09:00:00Z', '2026-03-01T09:00:00+01:00', '2026-03-01T09:00:00', '31/03/2026', 'yesterday', '2026-02-30', ''],
    'filter[date_to]': ['2026-03-31', '2026-03-31T18:00:00.500Z', '2026-13-01', 'now', ''],
  };

  it.each([
    ['listChambers', '/chambers'],
    ['listMembers', '/chambers/{c}/members'],
    ['listEvents', '/chambers/{c}/events'],
    ['getChamber', '/chambers/{c}'],
  ])('%s: a query value is allowed by the document exactly when the server takes it', async (id, path) => {
    const params = operation(docs.v2!, id).op.parameters.filter((p: Json) => p.in === 'query');
    expect(params.length).toBeGreaterThan(0);
    for (const param of params) {
      const probes = PROBES[param.name];
      expect(probes, `no probes for ${param.name}`).toBeDefined();
      for (const raw of probes!) {
        const url = `/v2${path.replace('{c}', chamberId)}?${encodeURIComponent(param.name)}=${encodeURIComponent(raw)}`;
        const r = await call(srv.baseUrl, 'GET', url, { token });
        expect([200, 400], url).toContain(r.status);
        expect(documentAllows(param, raw), `${param.name}=${raw}: the server answered ${r.status}`).toBe(r.status === 200);
      }
    }
  });

  it.each(['v1', 'v2'])("%s: per_page's documented maximum is the 100 the server applies; above it, however large, is valid and clamped", async (v) => {
    for (const id of v === 'v1' ? ['listChambers', 'listMembers'] : ['listChambers', 'listMembers', 'listEvents']) {
      const param = operation(docs[v]!, id).op.parameters.find((p: Json) => p.name === 'per_page');
      expect(param.schema).toMatchObject({ default: 20, anyOf: [{ type: 'integer', minimum: 1, maximum: 100 }, { type: 'integer', exclusiveMinimum: 100 }] });
      expect(param.schema.anyOf[1].maximum).toBeUndefined();
      expect(param.schema.anyOf[1].description).toMatch(/taken as 100/);
      expect(param.description).toMatch(/above 100 is clamped to 100/);
    }
    const path = v === 'v1' ? '/v1/chambers' : '/v2/chambers';
    for (const [raw, inEffect] of [['100', 100], ['101', 100], ['9007199254740992', 100], ['1'.repeat(400), 100]] as const) {
      const r = await call(srv.baseUrl, 'GET', `${path}?per_page=${raw}`, { token: v === 'v1' ? await getToken(srv.baseUrl, 'v1') : token });
      expect(r.status, raw).toBe(200);
      expect(r.body.meta.per_page).toBe(inEffect);
    }
  });

  it('a token request or create body is valid by the document exactly when the server takes it (rules on data aside)', async () => {
    const schema = (name: string) => ({ $ref: `https://openapi.test/doc#/components/schemas/${name}` });
    const docAjv = addFormats(new Ajv2020({ strict: false }));
    docAjv.addSchema({ $id: 'https://openapi.test/doc', components: docs.v2!.components });
    const address = { street: 'Markt 1', city: 'Bonn', country: 'DE' };
    const chambers: Json[] = [
      { name: 'A', type: 'hq', address },
      { name: 'A', type: 'hq', hq_id: null, address: { ...address, country: 'de', postal_code: null } },
      { name: 'A', type: 'subsidiary', hq_id: chamberId, address },
      { name: 'A', type: 'subsidiary', address },
      { name: 'A', type: 'hq', hq_id: chamberId, address },
      { name: '   ', type: 'hq', address },
      { name: 'A', type: 'hq', address: { ...address, country: 'DEU' } },
      { name: 'A', type: 'hq', address: { ...address, country: '' } },
      { name: 'A', type: 'hq', address: { street: 'x', country: 'DE' } },
      { name: 'A'.repeat(201), type: 'hq', address },
      { name: 'A\u0000B', type: 'hq', address },
      { name: 'A', type: 'hq', address: { ...address, city: 'Bo\u0000nn' } },
      { name: 'A', type: 'branch', address },
      { type: 'hq', address },
    ];
    for (const body of chambers) {
      const r = await call(srv.baseUrl, 'POST', '/v2/chambers', { token, body });
      expect([201, 422], JSON.stringify(body)).toContain(r.status);
      expect(docAjv.validate(schema('ChamberCreate'), body), `${JSON.stringify(body)}: the server answered ${r.status}`).toBe(r.status === 201);
    }
    const creds = { client_id: srv.clientId, client_secret: srv.clientSecret };
    const tokenRequests: Json[] = [
      { grant_type: 'client_credentials', ...creds },
      { grant_type: 'password', ...creds },
      { ...creds },
      { grant_type: 'client_credentials', client_id: '', client_secret: srv.clientSecret },
      { grant_type: 'client_credentials', client_id: srv.clientId },
    ];
    for (const body of tokenRequests) {
      const r = await call(srv.baseUrl, 'POST', '/v2/auth/token', { body });
      expect([200, 400], JSON.stringify(body)).toContain(r.status);
      // (the last is valid by the schema, which cannot tell that Basic was not used: the
      // endpoint then needs client_secret, as the operation's description says)
      if (body.client_secret !== undefined) expect(docAjv.validate(schema('TokenRequest'), body), JSON.stringify(body)).toBe(r.status === 200);
    }
    const members: Json[] = [
      { name: 'Ada', email: 'ada@example.org', membership_type: 'premium' },
      { name: 'Ada', email: 'ada2@example.org', phone: '+44 20 7946 0000', membership_type: 'standard' },
      { name: 'Ada', email: 'ada3@example.org', phone: null, membership_type: 'honorary' },
      { name: 'Ada', email: 'ada-at-example', membership_type: 'premium' },
      { name: 'Ada', email: 'ada4@example.org', phone: 'call me', membership_type: 'premium' },
      { name: 'Ada', email: 'ada5@example.org', membership_type: 'gold' },
      { name: 'A\u0000da', email: 'ada8@example.org', membership_type: 'premium' },
      { name: 'Ada', email: 'ada9@example.org', phone: '1\u00002', membership_type: 'premium' },
      { name: '', email: 'ada6@example.org', membership_type: 'premium' },
      { email: 'ada7@example.org', membership_type: 'premium' },
    ];
    for (const body of members) {
      const r = await call(srv.baseUrl, 'POST', `/v2/chambers/${chamberId}/members`, { token, body });
      expect([201, 422], JSON.stringify(body)).toContain(r.status);
      expect(docAjv.validate(schema('MemberCreate'), body), `${JSON.stringify(body)}: the server answered ${r.status}`).toBe(r.status === 201);
    }
  });
});

describe('the conformance check of the tests (test/helpers/conformance.ts)', () => {
  const exchange = (over: Partial<Parameters<Conformance['check']>[0]>) => ({
    method: 'GET',
    url: '/v2/chambers',
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: '{"data":[],"meta":{"current_page":1,"total":0,"per_page":20}}',
    ...over,
  });

  it('passes a conforming answer and names what is wrong with others', () => {
    const c = new Conformance(srv.baseUrl);
    expect(c.check(exchange({}))).toBeUndefined();
    expect(c.check(exchange({ body: '{"data":[]}' }))).toMatch(/required property 'meta'/);
    expect(c.check(exchange({ status: 404, body: '{"error":"x"}' }))).toMatch(/status 404 is not declared for listChambers/);
    expect(c.check(exchange({ method: 'POST', status: 201, body: '{}' }))).toMatch(/Location header is missing/);
    expect(c.check(exchange({ url: '/v1/chambers', status: 400, body: '{"error":"x","fields":{"page":["no"]}}' }))).toMatch(/additional properties/);
    // a returned record holds what the server guarantees: an e-mail address, an upper-case country
    const m = { id: 'mb_1', chamber_id: 'ch_1', name: 'A', email: 'a@example.org', phone: null, membership_type: 'standard', status: 'active', joined_at: '2026-03-01T10:00:00.000Z' };
    const members = (over: Json) => exchange({ url: '/v2/chambers/ch_1/members', body: JSON.stringify({ data: [{ ...m, ...over }], meta: { current_page: 1, total: 1, per_page: 20 } }) });
    expect(c.check(members({}))).toBeUndefined();
    expect(c.check(members({ email: 'not-an-address' }))).toMatch(/email must match format "email"/);
    const ch = { id: 'ch_1', name: 'A', type: 'hq', hq_id: null, status: 'active', address: { street: 's', city: 'c', postal_code: null, country: 'de' }, created_at: '2026-03-01T10:00:00.000Z' };
    expect(c.check(exchange({ body: JSON.stringify({ data: [ch], meta: { current_page: 1, total: 1, per_page: 20 } }) }))).toMatch(/country must match pattern/);
    // the issue's two answers that did not conform: a malformed Idempotency-Key
    const badKey = { method: 'POST', status: 400, body: '{"error":"x","fields":{"Idempotency-Key":["must be 1 to 255 visible ASCII characters"]}}' };
    expect(c.check(exchange(badKey))).toBeUndefined();
    // an unknown path is no operation, but its error is still the Error body
    expect(c.check(exchange({ url: '/v2/nope', status: 404, body: '{"error":"no such path"}' }))).toBeUndefined();
    expect(c.check(exchange({ url: '/v2/nope', status: 404, headers: { 'content-type': 'text/plain' }, body: 'no' }))).toMatch(/without a JSON body/);
    expect(c.problems).toHaveLength(7);
  });

  it('has checked every answer this file received so far', () => {
    expect(srv.conformance.checked).toBeGreaterThan(100);
    expect(srv.conformance.problems).toEqual([]);
  });

  it("records a process's answers with record-exchanges.mjs, and checks them when it ends", async () => {
    // a stand-in for `serve`: a good answer, a wrong one, and one longer than the recorder keeps
    const script = `require('node:http').createServer((req, res) => {
      res.setHeader('content-type', 'application/json; charset=utf-8');
      if (req.url === '/v2/chambers') return res.end('{"data":[],"meta":{"current_page":1,"total":0,"per_page":20}}');
      if (req.url === '/v2/chambers?page=2') return res.end('{"data":[]}');
      for (let i = 0; i < 9; i++) res.write('x'.repeat(1024 * 1024));
      res.end();
    }).listen(0, '127.0.0.1', function () { console.log(this.address().port); });`;
    const file = join(tmpdir(), `chamberctl-exchanges-test-${process.pid}.jsonl`);
    const recorder = new URL('../helpers/record-exchanges.mjs', import.meta.url).href;
    const child = spawn(process.execPath, [`--import=${recorder}`, '-e', script], { env: { ...process.env, CHAMBERCTL_TEST_EXCHANGES: file } });
    try {
      const [port] = (await once(child.stdout, 'data')) as [Buffer];
      const base = `http://127.0.0.1:${String(port).trim()}`;
      for (const path of ['/v2/chambers', '/v2/chambers?page=2', '/v2/chambers?page=3']) await (await fetch(`${base}${path}`)).arrayBuffer();
      child.kill();
      await once(child, 'exit');
      const recorded = readFileSync(file, 'utf8');
      const err = checkRecordedExchanges(new Conformance(base), `${recorded}{"method":"GET","url":"/cut-short`, 'the stand-in');
      expect(err?.message.split('\n')).toEqual([
        '2 of 3 answers of the stand-in do not conform to its OpenAPI document:',
        expect.stringMatching(/^GET \/v2\/chambers\?page=2 → 200: listChambers 200: data must have required property 'meta'/),
        `GET /v2/chambers?page=3 → 200: listChambers 200: the body (${9 * 1024 * 1024} bytes) is longer than record-exchanges.mjs keeps, so it could not be checked`,
      ]);
      expect(JSON.parse(recorded.split('\n')[0]!)).toMatchObject({ method: 'GET', url: '/v2/chambers', status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } });
    } finally {
      child.kill();
      rmSync(file, { force: true });
    }
  });
});

describe('the start-up answer: 503 starting, on every path but GET /livez', () => {
  // What `serve` answers from the moment it listens until it is ready
  // (docs/server-behaviour.md#start-up), byte for byte.
  const BODY = '{"error":"starting","error_description":"the server is starting; try again in a moment"}';
  const HEADERS = { 'content-type': 'application/json; charset=utf-8', 'retry-after': '1', 'cache-control': 'no-store', 'x-request-id': 'starting-1' };
  const BASE = 'http://127.0.0.1:8080';
  // with and without --metrics: the documents a server publishes either way
  const variants = { metrics: generatedDocuments(BASE, { metrics: true }), plain: generatedDocuments(BASE) };
  const ajv = addFormats(new Ajv2020({ strict: false }));

  const resolve = (doc: Json, x: Json | undefined): Json | undefined => {
    let out = x;
    while (out && typeof out.$ref === 'string') out = out.$ref.slice(2).split('/').reduce((o: Json, k: string) => o[k], doc);
    return out;
  };
  /** The URL of an operation: its path with a value for each parameter, under its server. */
  const urlOf = (v: string, path: string, item: Json) => `${item.servers ? '' : `/${v}`}${path.replace(/\{[^}]+\}/g, 'x1')}`;

  it("is the contract's StartingBody", () => {
    expect(JSON.stringify(STARTING)).toBe(BODY);
    expect(StartingBody.safeParse(JSON.parse(BODY)).success).toBe(true);
    expect(StartingBody.safeParse({ error: 'starting' }).success).toBe(false);
  });

  it.each(['v1', 'v2'])("%s: every operation but getLive declares it among its 503 bodies, with Retry-After", (v) => {
    const doc = variants.metrics[v as 'v1' | 'v2'];
    const ids: string[] = [];
    for (const { op } of operations(doc)) {
      ids.push(op.operationId);
      const res = resolve(doc, op.responses['503']);
      if (op.operationId === 'getLive') {
        expect(res, 'GET /livez answers 200 while the server starts').toBeUndefined();
        continue;
      }
      expect(res, `${op.operationId} has no 503`).toBeDefined();
      expect(resolve(doc, res!.headers?.['Retry-After'])).toMatchObject({ required: true, schema: { type: 'integer' } });
      expect(Object.keys(res!.content)).toEqual(['application/json']);
      const schema = { ...res!.content['application/json'].schema, components: doc.components };
      expect(ajv.validate(schema, JSON.parse(BODY)), `${op.operationId}: ${ajv.errorsText()}`).toBe(true);
      expect(ajv.validate(schema, { starting: true }), op.operationId).toBe(false);
    }
    expect(ids).toEqual(expect.arrayContaining(['getHealth', 'getMetrics', 'getOpenApiDocument', 'getAuthServerMetadata', 'issueToken', 'listChambers']));
    expect(doc.components.schemas.StartingError).toEqual({
      type: 'object',
      properties: { error: { type: 'string', const: 'starting' }, error_description: { type: 'string' } },
      required: ['error', 'error_description'],
      additionalProperties: false,
    });
  });

  it.each(['v1', 'v2'] as const)('%s: the exact answer conforms on every path but /livez, documented or not, with --metrics or without', (v) => {
    for (const [name, docs] of Object.entries(variants)) {
      const c = new Conformance(BASE, docs);
      const answer = (method: string, url: string, over: Json = {}) => c.check({ method, url, status: 503, headers: HEADERS, body: BODY, ...over });
      for (const [path, item] of Object.entries<Json>(docs[v].paths)) {
        for (const method of ['get', 'post'].filter((m) => item[m])) {
          const url = urlOf(v, path, item);
          if (item[method].operationId === 'getLive') {
            expect(answer('GET', url)).toMatch(/status 503 is not declared for getLive/);
            continue;
          }
          expect(answer(method.toUpperCase(), url), `${name}: ${method} ${url}`).toBeUndefined();
          expect(answer('HEAD', url, { body: '' }), `${name}: HEAD ${url}`).toBeUndefined();
          // what it must carry: Retry-After, JSON, the body
          expect(answer(method.toUpperCase(), url, { headers: { ...HEADERS, 'retry-after': undefined } })).toMatch(/Retry-After header is missing/);
          expect(answer(method.toUpperCase(), url, { headers: { ...HEADERS, 'retry-after': 'soon' } })).toMatch(/Retry-After header/);
          expect(answer(method.toUpperCase(), url, { headers: { ...HEADERS, 'content-type': 'text/plain' } })).toMatch(/Content-Type text\/plain/);
          expect(answer(method.toUpperCase(), url, { body: '{"status":"starting"}' })).toMatch(/503/);
        }
      }
      // paths that are no operation of the document: /docs, its files, an unknown path, a
      // method a path does not serve (and /metrics without --metrics)
      for (const [method, url] of [['GET', '/docs'], ['GET', `/docs/${v}`], ['GET', '/docs/assets/swagger-ui.css'], ['GET', '/nope'], [`GET`, `/${v}/nope`], ['POST', '/healthz'], ['DELETE', `/${v}/chambers`], ['GET', '/metrics'], ['HEAD', '/docs']]) {
        expect(answer(method!, url!, method === 'HEAD' ? { body: '' } : {}), `${name}: ${method} ${url}`).toBeUndefined();
        if (method !== 'HEAD') expect(answer(method!, url!, { headers: { ...HEADERS, 'content-type': 'text/html' } })).toMatch(/text\/html/);
      }
    }
  });
});
