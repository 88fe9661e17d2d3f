// Writes the OpenAPI documents of both versions, as `chamberctl serve --metrics` publishes
// them (the fullest: without --metrics a server leaves /metrics out), to DIR/v1.json and
// DIR/v2.json, from the server's own code (src/server/openapi/, bundled in memory with
// esbuild) without starting a server. `npm run lint:openapi` lints them, `npm run
// openapi:client` makes test/openapi-client/v2.ts of v2.json.
//
//   node scripts/openapi-documents.mjs [DIR] [BASE_URL]   (default dist/openapi, http://127.0.0.1:8080)
import { build } from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';

const [dir = 'dist/openapi', baseUrl = 'http://127.0.0.1:8080'] = process.argv.slice(2);

const bundle = await build({
  entryPoints: ['src/server/openapi/document.ts'],
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  write: false,
  logLevel: 'warning',
});
const { openApiDocument } = await import(`data:text/javascript;base64,${Buffer.from(bundle.outputFiles[0].text).toString('base64')}`);
mkdirSync(dir, { recursive: true });
for (const version of ['v1', 'v2']) {
  writeFileSync(`${dir}/${version}.json`, `${JSON.stringify(openApiDocument(version, baseUrl, { metrics: true }), null, 2)}\n`);
}
console.log(`wrote ${dir}/v1.json and ${dir}/v2.json`);
