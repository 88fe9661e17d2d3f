import { readPackageFile } from '../files/package-file.js';
import type { FastifyInstance } from 'fastify';
import { API_VERSIONS, type ApiVersion } from '../contract/index.js';
import { sendError } from './errors.js';
import { methodNotAllowed } from './routes/method-not-allowed.js';

// GET /docs: a readable reference of each version's OpenAPI document, with "try it", in
// Swagger UI. Its files come with the package (dist/docs/, copied by scripts/build.mjs), so
// the page works without a network; a Content-Security-Policy keeps every request it makes
// on this server.

const ASSETS: Record<string, string> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  LICENSE: 'text/plain; charset=utf-8',
  NOTICE: 'text/plain; charset=utf-8',
};

/** Starts Swagger UI on the page's document (a script file: the policy allows no inline script). */
const INIT_JS = `window.addEventListener('load', function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.dataset.url,
    domNode: root,
    deepLinking: true,
    displayOperationId: true,
    validatorUrl: null,
    persistAuthorization: false,
    tryItOutEnabled: false,
  });
});
`;

const PAGE_CSS = `body { margin: 0; background: #fafafa; font-family: sans-serif; }
nav.versions { padding: 10px 20px; background: #1b1b1b; color: #fff; font-size: 14px; }
nav.versions a { color: #fff; margin-right: 16px; }
nav.versions a[aria-current] { font-weight: bold; text-decoration: none; }
`;

const label = (v: ApiVersion) => (v === 'v1' ? 'v1 (stable)' : 'v2 (beta)');

function page(version: ApiVersion): string {
  const links = API_VERSIONS.map((v) => `<a href="/docs/${v}"${v === version ? ' aria-current="page"' : ''}>${label(v)}</a>`).join('');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Chamber Directory Service ${label(version)}: API reference</title>
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="stylesheet" href="/docs/assets/page.css">
</head>
<body>
<nav class="versions">Chamber Directory Service API: ${links}<a href="/${version}/openapi.json">openapi.json</a></nav>
<div id="swagger-ui" data-url="/${version}/openapi.json"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;
}

/**
 * The page's policy: its own scripts only, requests only to this server and to the public
 * URL the documents name (their `servers`, where "try it" sends requests).
 */
function contentSecurityPolicy(publicUrl: string): string {
  const origin = new URL(publicUrl).origin;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'", // Swagger UI sets style attributes
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self' ${origin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function registerDocs(app: FastifyInstance, publicUrl: () => string): void {
  const cache = new Map<string, Buffer>();

  for (const version of [undefined, ...API_VERSIONS]) {
    const path = version ? `/docs/${version}` : '/docs';
    app.get(path, async (_request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .header('Content-Security-Policy', contentSecurityPolicy(publicUrl()))
        .header('X-Content-Type-Options', 'nosniff')
        .send(page(version ?? 'v2')),
    );
    methodNotAllowed(app, path, ['GET']);
  }

  app.get<{ Params: { file: string } }>('/docs/assets/:file', async (request, reply) => {
    const { file } = request.params;
    if (file === 'init.js') return reply.type('text/javascript; charset=utf-8').send(INIT_JS);
    if (file === 'page.css') return reply.type('text/css; charset=utf-8').send(PAGE_CSS);
    // own keys only: `constructor`, `__proto__` or `toString` are not files
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (!type) return sendError(reply, 404, `no such file: /docs/assets/${file}`);
    let body = cache.get(file);
    if (!body) {
      body = readPackageFile(`dist/docs/${file}`);
      if (!body) return sendError(reply, 500, 'the API reference page is missing from this installation (dist/docs/; npm run build)');
      cache.set(file, body);
    }
    return reply.type(type).header('X-Content-Type-Options', 'nosniff').header('Cache-Control', 'public, max-age=3600').send(body);
  });
  methodNotAllowed(app, '/docs/assets/:file', ['GET']);
}
