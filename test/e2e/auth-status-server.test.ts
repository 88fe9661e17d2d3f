// Issue 43, item 4: `auth status` asks the server, as `gh auth status` does: a revoked
// client's cached token no longer reads as valid; --offline shows the cache alone.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

let dir: string;
let server: ServeProcess;
const db = () => join(dir, 'team.db');
const cli = (args: string[], input?: string) => runCli(args, { configDir: join(dir, 'config'), input });

beforeAll(async () => {
  assertBuilt();
  dir = await makeTempDir('chamberctl-auth-status-');
  server = await startServeProcess(['--port', '0', '--db', db(), '--seed', 'none', '--quiet'], { CHAMBERCTL_CONFIG_DIR: join(dir, 'serve-config') });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await removeTempDir(dir);
});

describe('auth status', () => {
  it('says what the server answers: accepted, then refused once the client is revoked; --offline asks nothing', async () => {
    const added = await cli(['clients', 'add', 'carol', '--scope', 'read', '--db', db(), '--json']);
    const secret = JSON.parse(added.stdout).client_secret as string;
    expect((await cli(['login', '--base-url', server.baseUrl, '--client-id', 'carol', '--client-secret-stdin'], secret)).exitCode).toBe(0);

    const ok = await cli(['auth', 'status']);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^server: +accepts the credentials \(scope read\)$/m);
    expect(JSON.parse((await cli(['auth', 'status', '--json'])).stdout).server).toEqual({ accepted: true, scope: 'read' });

    expect((await cli(['clients', 'revoke', 'carol', '--yes', '--db', db()])).exitCode).toBe(0);
    const refused = await cli(['auth', 'status']);
    expect(refused.exitCode).toBe(3);
    expect(refused.stdout).toMatch(/^token v2: +cached, valid until /m); // what the cache says...
    expect(refused.stdout).toMatch(/^server: +refuses the credentials/m); // ...and what the server says
    expect(refused.stderr).toMatch(new RegExp(`^error: ${server.baseUrl} refused the saved credentials: client authentication failed; the client was revoked or its secret rotated: ask for a new secret, then run \\\`chamberctl login\\\`\\n$`));

    const offline = await cli(['auth', 'status', '--offline']);
    expect(offline.exitCode, offline.stderr).toBe(0);
    expect(offline.stdout).toMatch(/^server: +not asked \(--offline\)$/m);
  }, 60_000);
});
