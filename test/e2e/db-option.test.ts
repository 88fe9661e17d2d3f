// `--db` on every command that takes it (docs/operations/serve.md#configuration-details): the
// value, else CHAMBERCTL_DB; any scheme:// but postgres(ql) is a usage error that creates
// nothing; the PostgreSQL password need not be in the URL (PGPASSWORD, the password file).
// And `serve --client-id` on an existing client: a restart with another secret changes nothing.
import { existsSync, readdirSync } from 'node:fs';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';
import { noteSecret } from '../helpers/run-logs.js';
import { createTestDatabase } from '../helpers/postgres.js';
import { startServeProcess } from '../helpers/serve-process.js';

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir('chamberctl-db-option-');
});
afterAll(() => removeTempDir(dir));

const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { configDir: join(dir, 'config'), env: { CHAMBERCTL_DATA_DIR: join(dir, 'data'), ...env } });

const TYPOS = ['postgress://app@127.0.0.1:5432/dir', 'mysql://root:hunter2@127.0.0.1/dir', 'http://127.0.0.1:8080', 'file:///tmp/x.db'];
const COMMANDS: string[][] = [
  ['serve', '--port', '0'],
  ['clients', 'list'],
  ['audit'],
  ['snapshot', 'export', join('/tmp', 'never.snapshot')],
  ['sync', 'status'],
];

describe('--db with another scheme', () => {
  for (const typo of TYPOS) {
    it(`${typo}: exit 2 on every command, one line, nothing created`, async () => {
      for (const command of COMMANDS) {
        const r = await cli([...command, '--db', typo]);
        expect(r.exitCode, `${command.join(' ')}: ${r.stderr}`).toBe(2);
        const scheme = typo.split(':')[0];
        expect(r.stderr.trim().split('\n'), command.join(' ')).toEqual([
          expect.stringMatching(new RegExp(`^error: --db ".*" is a ${scheme}:// URL; a database is a SQLite file, :memory:, or a postgres:// or postgresql:// URL$`)),
        ]);
        expect(r.stderr).not.toContain('hunter2'); // a password in the value is not echoed
      }
      // no file named after the URL, no default database
      expect(readdirSync(process.cwd()).filter((f) => f.startsWith('postgress:') || f.startsWith('mysql:'))).toEqual([]);
      expect(existsSync(join(dir, 'data'))).toBe(false);
    });
  }

  // issue 43: one slash, or none, is a mistyped URL, not a SQLite file named after it
  const MISTYPED = ['postgres:/chamber@127.0.0.1:5433/dir', 'postgresql:chamber:hunter2@127.0.0.1/dir', 'sqlite:/x.db'];
  const ALL_DB_COMMANDS: string[][] = [
    ...COMMANDS,
    ['clients', 'add', 'bob'],
    ['snapshot', 'import', '-'],
    ['sync', 'push', '--dry-run'],
    ['sync', 'discard', 'chg_x'],
  ];
  for (const typo of MISTYPED) {
    it(`${typo}: a mistyped URL, exit 2 on every command that takes --db, nothing created`, async () => {
      for (const command of ALL_DB_COMMANDS) {
        const r = await runCli([...command, '--db', typo], { configDir: join(dir, 'config'), env: { CHAMBERCTL_DATA_DIR: join(dir, 'data') }, input: '' });
        expect(r.exitCode, `${command.join(' ')}: ${r.stderr}`).toBe(2);
        const scheme = /^[a-z]+/.exec(typo)![0];
        expect(r.stderr.trim().split('\n'), command.join(' ')).toEqual([
          `error: --db "${typo.replace(':hunter2@', ':***@')}" looks like a mistyped URL (${scheme}: needs two slashes: ${scheme}://user@host:port/database); nothing was created`,
        ]);
      }
      expect(readdirSync(process.cwd()).filter((f) => /^(postgres|postgresql|sqlite):/.test(f))).toEqual([]);
      expect(existsSync('postgres:')).toBe(false);
      expect(existsSync(join(dir, 'data'))).toBe(false);
    });
  }

  it('the same value in CHAMBERCTL_DB is refused the same way, naming the variable', async () => {
    const r = await cli(['clients', 'list'], { CHAMBERCTL_DB: 'postgress://app@127.0.0.1:5432/dir' });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe('error: CHAMBERCTL_DB "postgress://app@127.0.0.1:5432/dir" is a postgress:// URL; a database is a SQLite file, :memory:, or a postgres:// or postgresql:// URL\n');
  });
});

describe('CHAMBERCTL_DB', () => {
  it('is the database of every command when --db is absent; --db wins over it', async () => {
    const db = join(dir, 'env.db');
    const other = join(dir, 'other.db');
    expect((await cli(['clients', 'add', 'alice', '--scope', 'read', '--json'], { CHAMBERCTL_DB: db })).exitCode).toBe(4); // no such file yet: nothing created
    expect(existsSync(db)).toBe(false);
    const snapshot = join(dir, 'seeded.snapshot');
    // a database made by snapshot import into CHAMBERCTL_DB's file
    expect((await cli(['snapshot', 'export', snapshot, '--db', ':memory:'])).exitCode).toBe(0);
    const imported = await cli(['snapshot', 'import', snapshot, '--yes'], { CHAMBERCTL_DB: db });
    expect(imported.exitCode, imported.stderr).toBe(0);
    expect(existsSync(db)).toBe(true);
    const added = await cli(['clients', 'add', 'alice', '--scope', 'read', '--json'], { CHAMBERCTL_DB: db });
    expect(added.exitCode, added.stderr).toBe(0);
    noteSecret(JSON.parse(added.stdout).client_secret);
    const listed = await cli(['clients', 'list', '--json'], { CHAMBERCTL_DB: db });
    expect(JSON.parse(listed.stdout).map((c: { client_id: string }) => c.client_id)).toEqual(['alice']);
    // --db names another database: CHAMBERCTL_DB is not used
    expect((await cli(['clients', 'list', '--db', other], { CHAMBERCTL_DB: db })).exitCode).toBe(4);
  });
});

/**
 * A PostgreSQL server that asks for a clear-text password (AuthenticationCleartextPassword),
 * records what it is sent, and refuses it as a wrong password (28P01).
 */
async function passwordRecorder(): Promise<{ port: number; passwords: string[]; close(): Promise<void> }> {
  const passwords: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buf = Buffer.alloc(0);
    let started = false;
    socket.on('error', () => undefined);
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      for (;;) {
        if (!started) {
          if (buf.length < 4 || buf.length < buf.readInt32BE(0)) return;
          buf = buf.subarray(buf.readInt32BE(0));
          started = true;
          socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3])); // 'R', cleartext password
          continue;
        }
        if (buf.length < 5 || buf.length < 1 + buf.readInt32BE(1)) return;
        const type = String.fromCharCode(buf[0]!);
        const body = buf.subarray(5, 1 + buf.readInt32BE(1));
        buf = buf.subarray(1 + buf.readInt32BE(1));
        if (type === 'p') {
          passwords.push(body.subarray(0, body.indexOf(0)).toString('utf8'));
          const fields = Buffer.from('SFATAL\0C28P01\0Mpassword authentication failed for user "app"\0\0');
          const head = Buffer.alloc(5);
          head.write('E', 0);
          head.writeInt32BE(4 + fields.length, 1);
          socket.end(Buffer.concat([head, fields]));
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    passwords,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('the PostgreSQL password without the command line', () => {
  it('comes from PGPASSWORD, else from the password file (PGPASSFILE, 0600), and is never printed', async () => {
    const pg = await passwordRecorder();
    try {
      const url = `postgres://app@127.0.0.1:${pg.port}/dir`;
      const fromEnv = await cli(['clients', 'list', '--db', url], { PGPASSWORD: 'EnvPassword-123' });
      expect(fromEnv.exitCode).toBe(1);
      expect(fromEnv.stderr).toBe(`error: cannot open the database ${url}: authentication failed\n`);
      expect(pg.passwords.at(-1)).toBe('EnvPassword-123');

      const file = join(dir, 'pgpass');
      await writeFile(file, `127.0.0.1:${pg.port}:dir:app:FilePassword-456\n`);
      await chmod(file, 0o600); // libpq ignores a file that others can read
      const fromFile = await cli(['serve', '--port', '0'], { CHAMBERCTL_DB: url, PGPASSFILE: file });
      expect(fromFile.exitCode).toBe(1);
      expect(fromFile.stderr).toBe(`error: cannot open the database ${url}: authentication failed\n`); // no deprecation warning either
      expect(pg.passwords.at(-1)).toBe('FilePassword-456');
      for (const r of [fromEnv, fromFile]) expect(`${r.stdout}${r.stderr}`).not.toMatch(/Password-/);

      // none anywhere: what psql says, and where to put one (issue 43)
      const none = await cli(['clients', 'list', '--db', url], { PGPASSFILE: join(dir, 'no-such-pgpass') });
      expect(none.exitCode).toBe(1);
      expect(none.stderr).toBe(
        `error: cannot open the database ${url}: no password was given for user "app": set PGPASSWORD, add the line 127.0.0.1:${pg.port}:dir:app:PASSWORD to ${join(dir, 'no-such-pgpass')} (mode 0600), or put it in the URL\n`,
      );
      // a password file others can read is ignored, as libpq does: named as the reason
      await chmod(file, 0o644);
      const open = await cli(['clients', 'list', '--db', url], { PGPASSFILE: file });
      expect(open.exitCode).toBe(1);
      expect(open.stderr).toMatch(new RegExp(`: no password was given for user "app": .*; ${file} was ignored: its mode is 0644, and libpq reads it only when no one else can \\(chmod 600 ${file}\\)\n$`));
    } finally {
      await pg.close();
    }
  });
});

describe('a password in the query of a PostgreSQL URL', () => {
  it('is masked in the error line, as user:pw@ is', async () => {
    const pg = await passwordRecorder();
    try {
      const url = `postgres://app@127.0.0.1:${pg.port}/dir?password=QueryPassword-789&application_name=x`;
      const r = await cli(['clients', 'list', '--db', url]);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toBe(`error: cannot open the database postgres://app@127.0.0.1:${pg.port}/dir?password=***&application_name=x: authentication failed\n`);
      expect(pg.passwords.at(-1)).toBe('QueryPassword-789'); // (it was used)
      const typo = await cli(['clients', 'list', '--db', 'postgress://app@h/dir?sslpassword=KeyPass-1&PASSWORD=QueryPassword-2']);
      expect(typo.stderr).toContain('"postgress://app@h/dir?sslpassword=***&PASSWORD=***"');
      for (const out of [r, typo]) expect(`${out.stdout}${out.stderr}`).not.toMatch(/Password-|KeyPass-/);
    } finally {
      await pg.close();
    }
  });

  it("is masked in serve's start line, its log and the profile it saves (serveDb)", async () => {
    const db = await createTestDatabase();
    const secrets = ['QueryPassword-ABC', 'KeyPassphrase-DEF'];
    for (const s of secrets) noteSecret(s);
    try {
      const url = `${db.url}?password=${secrets[0]}&sslpassword=${secrets[1]}`;
      const configDir = join(dir, 'config-query');
      const server = await startServeProcess(['--port', '0', '--db', url, '--seed', 'none'], { CHAMBERCTL_CONFIG_DIR: configDir });
      const { stdout, stderr } = await server.stop();
      const config = await readFile(join(configDir, 'config.json'), 'utf8');
      for (const text of [stdout, stderr, config]) for (const s of secrets) expect(text).not.toContain(s);
      expect(config).toContain('?password=***&sslpassword=***');
      expect(stdout).toMatch(/database: PostgreSQL database \S+ on 127\.0\.0\.1:\d+ as postgres/); // the banner names it in words, no URL
    } finally {
      await db.drop();
    }
  });
});
