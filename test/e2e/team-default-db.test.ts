// Issue 43, item 4: `clients` and `audit` without --db use the database of the current
// profile's `serve` (as kubectl uses the current context), not a default database that
// another serve never wrote; when that database is gone, the error names it and --db.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';
import { runOnPty } from '../helpers/pty.js';
import { startServeProcess } from '../helpers/serve-process.js';

let dir: string;
beforeAll(async () => {
  assertBuilt();
  dir = await makeTempDir('chamberctl-team-db-');
});
afterAll(() => removeTempDir(dir));

const env = () => ({ CHAMBERCTL_CONFIG_DIR: join(dir, 'config'), CHAMBERCTL_DATA_DIR: join(dir, 'data') });
const cli = (args: string[]) => runCli(args, { configDir: join(dir, 'config'), env: { CHAMBERCTL_DATA_DIR: join(dir, 'data') } });

describe('clients and audit without --db', () => {
  it("use the database the current profile's serve serves; a gone one is exit 4 naming it", async () => {
    const db = join(dir, 'team.db');
    const s = await startServeProcess(['--port', '0', '--db', db, '--seed', 'none', '--quiet'], env());
    await s.stop();
    const added = await cli(['clients', 'add', 'bob', '--scope', 'read', '--json']);
    expect(added.exitCode, added.stderr).toBe(0);
    const listed = await cli(['clients', 'list', '--db', db, '--json']);
    expect(JSON.parse(listed.stdout).map((c: { client_id: string }) => c.client_id)).toContain('bob');
    const audit = await cli(['audit', '--target', 'bob', '--json']);
    expect(audit.exitCode, audit.stderr).toBe(0);
    expect(JSON.parse(audit.stdout).map((a: { action: string }) => a.action)).toEqual(['client.add']);
    expect(existsSync(join(dir, 'data', 'chamberctl.db'))).toBe(false); // the default database was not used

    // on a terminal, the login line to hand over with the secret names that serve's URL (issue 43, item 6)
    const onTerminal = await runOnPty(['clients', 'add', 'dora'], { configDir: join(dir, 'config'), columns: 200, steps: [] });
    expect(onTerminal.exitCode, onTerminal.output).toBe(0);
    expect(onTerminal.output).toContain(`Its user logs in with (the secret on stdin): chamberctl login --base-url ${s.baseUrl} --client-id dora --client-secret-stdin\n`);

    rmSync(db);
    const gone = await cli(['clients', 'list']);
    expect(gone.exitCode).toBe(4);
    expect(gone.stderr).toBe(`error: no database at ${db}, the database of profile "local" (saved by its \`serve\`); --db names another\n`);
  }, 60_000);
});
