import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { call } from '../helpers/http.js';
import { answerWithoutBody } from '../helpers/raw-http.js';
import { noteSecret } from '../helpers/run-logs.js';

// What a client sends can reach the log (an unknown client id, the path, headers): it must not
// start a line of its own, in JSON or in text, nor reach a terminal as a control sequence
// (docs/server-behaviour.md#hostile-input). And a header cannot smuggle a line into an answer.

const FORGED = '{"level":60,"msg":"forged"}';
const NASTY_ID = `evil\r\n${FORGED}\n[12:00:00] ERROR: forged\u001b[2J\u009b31m`;

function startWith(format: 'json' | 'text', lines: string[]): Promise<RunningServer> {
  return startServer({
    host: '127.0.0.1',
    port: 0,
    dbPath: ':memory:',
    seed: 'none',
    clientId: 'inject-test',
    clientSecret: 'InjectSecret0123456789abcdefgh',
    logging: { destination: { write: (l: string) => lines.push(l) }, format, requests: true, colour: false },
  });
}

const wrong = 'InjectWrongSecret0123456789abcd';
noteSecret('InjectSecret0123456789abcdefgh');
noteSecret(wrong);

/** The requests that carry a client's bytes toward the log. */
async function hostileRequests(baseUrl: string): Promise<void> {
  // an unknown client id is logged with the refusal, when it could be a client id
  await call(baseUrl, 'POST', '/v2/auth/token', {
    body: { grant_type: 'client_credentials', client_id: NASTY_ID, client_secret: wrong },
    headers: { 'x-request-id': 'inject-id' },
  });
  await call(baseUrl, 'POST', '/v2/auth/token', {
    body: { grant_type: 'client_credentials', client_id: 'someone.else', client_secret: wrong },
    headers: { 'x-request-id': 'plausible-id' },
  });
  // control characters node refuses in a path or a header (400), and bytes past ASCII
  // (obs-text) it lets through in a header value
  await answerWithoutBody(baseUrl, `GET /v2/x\x1b[2J HTTP/1.1\r\nHost: x\r\n\r\n`);
  await answerWithoutBody(baseUrl, `GET /livez HTTP/1.1\r\nHost: x\r\nUser-Agent: a\x1b[2Jb\r\n\r\n`);
  await answerWithoutBody(baseUrl, `GET /v2/nothing HTTP/1.1\r\nHost: x\r\nX-Request-Id: obs-text\r\nUser-Agent: a\xc2\x9b31mb\r\n\r\n`);
}

describe('in JSON lines', () => {
  const lines: string[] = [];
  let server: RunningServer;
  beforeAll(async () => {
    server = await startWith('json', lines);
    await hostileRequests(server.baseUrl);
  });
  afterAll(() => server.close());

  it('every line is one JSON object; an id that is no client id is not logged, a plausible one is', () => {
    const all = lines.join('').split('\n').filter((l) => l !== '');
    const entries = all.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.some((e) => e.msg === 'forged')).toBe(false);
    const refused = entries.find((e) => e.reqId === 'inject-id')!;
    expect(refused).toMatchObject({ reason: 'unknown_client' });
    expect(refused).not.toHaveProperty('client_id');
    expect(entries.find((e) => e.reqId === 'plausible-id')).toMatchObject({ reason: 'unknown_client', client_id: 'someone.else' });
    for (const line of all) expect(line).not.toMatch(/[\u0000-\u001f\u007f]/);
    // a byte past ASCII stays inside its JSON string, in its line
    const obs = entries.find((e) => e.reqId === 'obs-text') as { req: { headers: Record<string, string> } };
    expect(obs.req.headers['user-agent']).toMatch(/^a.*\u009b31mb$/);
  });
});

describe('in text lines', () => {
  const lines: string[] = [];
  let server: RunningServer;
  beforeAll(async () => {
    server = await startWith('text', lines);
    await hostileRequests(server.baseUrl);
  });
  afterAll(() => server.close());

  it('each line is a line of the log, and no control character reaches the terminal', () => {
    const text = lines.join('');
    const all = text.split('\n').filter((l) => l !== '');
    for (const line of all) expect(line).toMatch(/^\[\d\d:\d\d:\d\d\] (INFO|WARN|ERROR|DEBUG): /);
    expect(text).not.toContain('forged');
    expect(text.replace(/\n/g, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(all.filter((l) => l.includes('[inject-id]'))).toEqual([expect.stringMatching(/ 401 [\d.]+ms (from [\d.:a-f]+ )?\(unknown_client\) \[inject-id\]$/)]);
    expect(all.filter((l) => l.includes('[plausible-id]'))).toEqual([expect.stringMatching(/\(unknown_client, client someone\.else\) \[plausible-id\]$/)]);
  });
});

describe('headers', () => {
  it('a CR or LF inside a header value is a 400, answered in JSON, not a second header', async () => {
    const lines: string[] = [];
    const server = await startWith('json', lines);
    try {
      for (const raw of ['X-Request-Id: a\rSet-Cookie: x=1', 'X-Request-Id: a\nSet-Cookie: x=1', 'X-Forwarded-For: 1.2.3.4\r X-Evil: 1']) {
        const r = await answerWithoutBody(server.baseUrl, `GET /livez HTTP/1.1\r\nHost: x\r\n${raw}\r\n\r\n`);
        expect(r.status, raw).toBe(400);
        expect(r.headers['set-cookie']).toBeUndefined();
        expect(JSON.parse(r.body)).toEqual({ error: 'the request is not valid HTTP' });
      }
      // a request id that is not 1-128 visible ASCII characters is replaced, not echoed
      const r = await answerWithoutBody(server.baseUrl, `GET /livez HTTP/1.1\r\nHost: x\r\nX-Request-Id: a\xc2\x9bb\r\n\r\n`);
      expect(r.status).toBe(200);
      expect(r.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await server.close();
    }
  });
});
