// A client generated from /v2/openapi.json with openapi-typescript, as a user would make one:
// the committed types (./v2.ts) are what openapi-typescript makes of the current document,
// the example of docs/server-behaviour.md#openapi-documents runs against a server (and `tsc`
// compiles it, documented-example.ts), and the page shows exactly that example.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/server/openapi/document.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { documentedExample } from './documented-example.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(HERE, '..', '..');
/** The base URL of `npm run openapi:client` (none of it reaches the types). */
const BASE_URL = 'http://127.0.0.1:8080';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ seed: 'demo' });
});
afterAll(() => srv.close());

describe('a client generated with openapi-typescript', () => {
  it('./v2.ts is what openapi-typescript makes of the current document (else: npm run openapi:client)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'chamberctl-openapi-client-'));
    try {
      // as scripts/openapi-documents.mjs writes it: the document of a `serve --metrics`
      await writeFile(join(dir, 'v2.json'), JSON.stringify(openApiDocument('v2', BASE_URL, { metrics: true })));
      // run where a user would: outside the project (whose redocly.yaml would apply)
      const bin = join(HERE, 'node_modules', '.bin', 'openapi-typescript');
      const r = await execa(bin, ['v2.json', '-o', 'v2.ts'], { cwd: dir, reject: false });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(await readFile(join(dir, 'v2.ts'), 'utf8')).toBe(await readFile(join(HERE, 'v2.ts'), 'utf8'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("runs the documented example: a token, the HQs sorted, a chamber with its members and events, a new member", async () => {
    const r = await documentedExample(`${srv.baseUrl}/v2`, srv.clientId, srv.clientSecret);
    expect(r.hqs.data.length).toBeGreaterThan(0);
    expect(r.hqs.data.every((c) => c.type === 'hq')).toBe(true);
    expect(r.hqs.meta.per_page).toBe(50);
    const created = r.hqs.data.map((c) => c.created_at);
    expect(created).toEqual([...created].sort().reverse());
    expect(r.chamber.members?.length).toBeGreaterThan(0);
    expect(r.chamber.events).toBeDefined();
    expect(r.error).toBeUndefined();
    expect(r.member).toMatchObject({ name: 'Ada Lovelace', chamber_id: r.chamber.id, status: 'active' });
  });

  it('docs/server-behaviour.md shows the example as documented-example.ts holds it', async () => {
    const page = await readFile(join(ROOT, 'docs/server-behaviour.md'), 'utf8');
    const block = /```ts\n(import createClient from 'openapi-fetch';[\s\S]*?)```/.exec(page)?.[1];
    expect(block, 'docs/server-behaviour.md has no openapi-fetch example').toBeDefined();
    const source = await readFile(join(HERE, 'documented-example.ts'), 'utf8');
    const region = /\/\/ shown begin\n([\s\S]*?)\n\s*\/\/ shown end/.exec(source)![1]!;
    const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter(Boolean);
    const shown = lines(block!);
    expect(shown.slice(shown.findIndex((l) => l.startsWith('const auth')))).toEqual(lines(region));
  });
});
