// GET /docs without a browser (test/e2e/docs-page.test.ts drives one): the page, its files
// from the package, and the policy that keeps its requests on this server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { answerWithoutBody } from '../helpers/raw-http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ seed: 'none' });
});
afterAll(() => srv.close());

describe('GET /docs', () => {
  it.each([
    ['/docs', 'v2'],
    ['/docs/', 'v2'],
    ['/docs/v1', 'v1'],
    ['/docs/v2', 'v2'],
  ])('%s is the page of %s, its scripts and requests kept on this server', async (path, version) => {
    const r = await call(srv.baseUrl, 'GET', path);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.text).toContain(`data-url="/${version}/openapi.json"`);
    const csp = r.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain(`connect-src 'self' ${srv.baseUrl}`);
    expect(csp).toContain("default-src 'none'");
    expect(r.text).not.toMatch(/https?:\/\//); // nothing from elsewhere
  });

  it.each([
    ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
    ['swagger-ui.css', 'text/css; charset=utf-8'],
    ['init.js', 'text/javascript; charset=utf-8'],
    ['favicon-32x32.png', 'image/png'],
    ['LICENSE', 'text/plain; charset=utf-8'],
  ])('serves %s from the package', async (file, type) => {
    const r = await fetch(`${srv.baseUrl}/docs/assets/${file}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe(type);
    expect((await r.arrayBuffer()).byteLength).toBeGreaterThan(100);
  });

  // sent as written (fetch would resolve the dots first): whatever decodes to a path outside
  // the list is a 404, and nothing of the package's other files is served
  it.each([
    '/docs/assets/../../package.json',
    '/docs/assets/..%2f..%2fpackage.json',
    '/docs/assets/..%2F..%2Fpackage.json',
    '/docs/assets/%2e%2e%2f%2e%2e%2fpackage.json',
    '/docs/assets/%252e%252e%252fpackage.json',
    '/docs/assets/..%252f..%252fpackage.json',
    '/docs/assets/..%5c..%5cpackage.json',
    '/docs/assets/....//....//package.json',
    '/docs/assets/%2e%2e/%2e%2e/package.json',
    '/docs/assets/swagger-ui.css%00.png',
    '/docs/assets/./swagger-ui.css/../../../package.json',
    '/docs/assets/%c0%ae%c0%ae%c0%afpackage.json',
    '/docs/../package.json',
    '/docs/assets//etc/passwd',
  ])('a traversal %s is a JSON 404 (or 400), never a file', async (path) => {
    const r = await answerWithoutBody(srv.baseUrl, `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect([400, 404]).toContain(r.status);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(r.body)).toEqual({ error: expect.any(String) });
  });

  it('answers an unknown file with 404 and another method with 405, in JSON', async () => {
    const missing = await call(srv.baseUrl, 'GET', '/docs/assets/../../package.json');
    expect(missing.status).toBe(404);
    const unknown = await call(srv.baseUrl, 'GET', '/docs/assets/swagger-ui.js.map');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/no such file/);
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      const r = await call(srv.baseUrl, 'GET', `/docs/assets/${name}`);
      expect(r.status, name).toBe(404);
      expect(r.body.error).toBe(`no such file: /docs/assets/${name}`);
    }
    const post = await call(srv.baseUrl, 'POST', '/docs');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});
