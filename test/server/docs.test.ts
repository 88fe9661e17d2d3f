// GET /docs without a browser (test/e2e/docs-page.test.ts drives one): the page, its files
// from the package, and the policy that keeps its requests on this server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
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

  it('answers an unknown file with 404 and another method with 405, in JSON', async () => {
    const missing = await call(srv.baseUrl, 'GET', '/docs/assets/../../package.json');
    expect(missing.status).toBe(404);
    const unknown = await call(srv.baseUrl, 'GET', '/docs/assets/swagger-ui.js.map');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/no such file/);
    const post = await call(srv.baseUrl, 'POST', '/docs');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});
