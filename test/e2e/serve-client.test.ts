// `serve --client-id` on a database where the client may exist
// (docs/operations/serve.md#what-serve-does-when-it-starts): registered when new; the same command line
// starts on every restart; another secret is refused (exit 1, nothing changed, naming `clients
// rotate`); the scope is never changed by serve. The secret comes from CHAMBERCTL_CLIENT_SECRET or
// --client-secret-file.
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { noteSecret } from '../helpers/run-logs.js';
import { startServeProcess } from '../helpers/serve-process.js';
import { TEST_BACKEND } from '../helpers/server.js';

const SECRET = 'BobSecret0123456789abcdefgh';
const OTHER = 'OtherSecret0123456789abcdef';
noteSecret(SECRET);
noteSecret(OTHER);

let dir: string;
let db: string;
let pgdb: TestDatabase | undefined;
beforeAll(async () => {
  dir = await makeTempDir('chamberctl-serve-client-');
  if (TEST_BACKEND === 'postgres') {
    pgdb = await createTestDatabase('chamberctl_serve_client');
    db = pgdb.url;
  } else {
    db = join(dir, 'team.db');
  }
});
afterAll(async () => {
  await pgdb?.drop();
  await removeTempDir(dir);
});

const configDir = () => join(dir, 'config');
const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { configDir: configDir(), env });

/** serve until it listens, then stopped: its exit code and log. */
async function serveOnce(args: string[], env: Record<string, string>): Promise<{ exitCode?: number; stderr: string }> {
  const serve = await startServeProcess(['--port', '0', '--db', db, '--seed', 'none', '--quiet', ...args], { CHAMBERCTL_CONFIG_DIR: configDir(), ...env });
  return serve.stop();
}

async function token(baseUrl: string, id: string, secret: string): Promise<number> {
  const r = await fetch(`${baseUrl}/v2/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: id, client_secret: secret }),
  });
  if (r.ok) noteSecret(((await r.json()) as { access_token: string }).access_token);
  return r.status;
}

describe(`serve --client-id on an existing client (${TEST_BACKEND})`, () => {
  it('registers it once, starts again with the same secret from the environment or a file, refuses another', async () => {
    expect(await serveOnce(['--client-id', 'bob'], { CHAMBERCTL_CLIENT_SECRET: SECRET })).toMatchObject({ exitCode: 0 });
    const file = join(dir, 'bob.secret');
    await writeFile(file, `${SECRET}\n`, { mode: 0o600 });
    for (let i = 0; i < 3; i++) expect(await serveOnce(['--client-id', 'bob', '--client-secret-file', file], {})).toMatchObject({ exitCode: 0 });

    const refused = await cli(['serve', '--port', '0', '--db', db, '--client-id', 'bob'], { CHAMBERCTL_CLIENT_SECRET: OTHER });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toBe(
      'error: the client "bob" exists with another secret, and serve does not change it: give its secret, or change it with `chamberctl clients rotate bob`\n',
    );
    expect(refused.stdout).toBe('');

    // nothing changed: the first secret still works, the other does not; one client.add
    const serve = await startServeProcess(['--port', '0', '--db', db, '--seed', 'none', '--quiet'], { CHAMBERCTL_CONFIG_DIR: join(dir, 'config-2') });
    try {
      expect(await token(serve.baseUrl, 'bob', SECRET)).toBe(200);
      expect(await token(serve.baseUrl, 'bob', OTHER)).toBe(401);
    } finally {
      await serve.stop();
    }
    const audit = JSON.parse((await cli(['audit', '--db', db, '--target', 'bob', '--json'])).stdout) as Array<{ action: string }>;
    expect(audit.map((a) => a.action)).toEqual(['client.add']);
  });

  it('never changes a scope: a read client stays read after a serve with its secret', async () => {
    const added = await cli(['clients', 'add', 'reader', '--scope', 'read', '--db', db, '--json']);
    expect(added.exitCode, added.stderr).toBe(0);
    const secret = JSON.parse(added.stdout).client_secret as string;
    noteSecret(secret);
    expect(await serveOnce(['--client-id', 'reader'], { CHAMBERCTL_CLIENT_SECRET: secret })).toMatchObject({ exitCode: 0 });
    const clients = JSON.parse((await cli(['clients', 'list', '--db', db, '--json'])).stdout) as Array<{ client_id: string; scope: string }>;
    expect(clients.find((c) => c.client_id === 'reader')?.scope).toBe('read');
  });

  it('a rotated client starts with its old secret during the grace, and says until when', async () => {
    const rotated = await cli(['clients', 'rotate', 'bob', '--grace', '10m', '--db', db, '--json']);
    expect(rotated.exitCode, rotated.stderr).toBe(0);
    noteSecret(JSON.parse(rotated.stdout).client_secret);
    const r = await serveOnce(['--client-id', 'bob'], { CHAMBERCTL_CLIENT_SECRET: SECRET });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/given its secret from before the last rotation, which stops working at \d{4}-/);
  });

  it('the secret given badly is a usage error (exit 2) that starts nothing', async () => {
    const cases: Array<[string[], Record<string, string>, string]> = [
      [['--client-id', 'carol'], {}, 'error: --client-id needs its secret: CHAMBERCTL_CLIENT_SECRET, --client-secret-file FILE, or --client-secret'],
      [['--client-id', 'carol', '--client-secret-file', join(dir, 'missing')], {}, `error: cannot read --client-secret-file ${join(dir, 'missing')}: no such file`],
      [['--client-id', 'carol', '--client-secret-file', dir], {}, `error: cannot read --client-secret-file ${dir}: it is a directory`],
      [['--client-id', 'carol', '--client-secret', SECRET, '--client-secret-file', join(dir, 'bob.secret')], {}, 'error: --client-secret and --client-secret-file: give one of them'],
      [['--client-secret-file', join(dir, 'bob.secret')], {}, 'error: --client-secret and --client-secret-file need --client-id'],
    ];
    // a secret file others can read or write is refused, as libpq refuses such a ~/.pgpass
    for (const mode of [0o644, 0o640, 0o604, 0o620]) {
      const open = join(dir, `open-${mode.toString(8)}.secret`);
      await writeFile(open, `${SECRET}\n`);
      await chmod(open, mode);
      cases.push([['--client-id', 'carol', '--client-secret-file', open], {}, `error: --client-secret-file ${open} can be read or written by others (mode 0${mode.toString(8)}): \`chmod 600 ${open}\`, as libpq asks of ~/.pgpass`]);
    }
    // only the first line is read, and one longer than a secret can be is the wrong file
    const long = join(dir, 'long.secret');
    await writeFile(long, `${'s'.repeat(5000)}\n`, { mode: 0o600 });
    cases.push([['--client-id', 'carol', '--client-secret-file', long], {}, `error: --client-secret-file ${long}: its first line is over 4096 bytes, which is no secret (the wrong file?)`]);
    for (const [args, env, line] of cases) {
      const r = await cli(['serve', '--port', '0', '--db', db, ...args], env);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toBe(`${line}\n`);
    }
    // CHAMBERCTL_CLIENT_SECRET alone (set for the whole host, say) registers nothing
    const clients = JSON.parse((await cli(['clients', 'list', '--db', db, '--json'])).stdout) as Array<{ client_id: string }>;
    expect(clients.map((c) => c.client_id)).not.toContain('carol');
  });
});
