// storage/open.ts, the one opener of --db: what a command allows of the database it names is
// refused before anything is created, and the handle it returns has the same sides on both
// backends (the store, the snapshot side, the offline copy), reading the same database.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../../src/core/exit-codes.js';
import { openDatabase, type Database } from '../../src/storage/open.js';
import { StartError } from '../../src/storage/start-error.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

let dir: string;
let pgDb: TestDatabase;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chamberctl-open-'));
  pgDb = await createTestDatabase('chamberctl_open');
});
afterAll(async () => {
  await pgDb?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const exitOf = async (p: Promise<unknown>) => {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(CliError);
  return { code: (err as CliError).exitCode, message: (err as Error).message };
};

describe('the rules of a command, checked before anything is created', () => {
  it('refuses :memory: with the reason the command gives (exit 2)', async () => {
    const r = await exitOf(openDatabase(':memory:', { memoryRefused: 'holds nothing to administer' }));
    expect(r).toEqual({ code: ExitCode.USAGE, message: '--db :memory: holds nothing to administer' });
  });

  it('refuses a missing SQLite file when it must exist (exit 4), and creates nothing', async () => {
    const file = join(dir, 'missing', 'x.db');
    expect(await exitOf(openDatabase(file, { mustExist: true }))).toEqual({ code: ExitCode.NOT_FOUND, message: `no database at ${file}` });
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });

  it('creates a new SQLite file 0600 when the command allows it', async () => {
    const file = join(dir, 'new.db');
    const db = await openDatabase(file);
    await db.close();
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a PostgreSQL database that cannot be opened is a StartError of exit 1, its password masked', async () => {
    const url = 'postgres://someone:hunter2@127.0.0.1:5432/chamberctl_no_such_database';
    const err = await openDatabase(url).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(StartError);
    expect((err as CliError).exitCode).toBe(ExitCode.FAILURE);
    expect((err as Error).message).not.toContain('hunter2');
    expect((err as Error).message).toMatch(/^cannot open the database postgres:\/\/someone:\*+@127\.0\.0\.1:5432\/chamberctl_no_such_database: /);
  });
});

describe.each(['sqlite', 'postgres'] as const)('the handle on %s', (backend) => {
  const open = () => (backend === 'sqlite' ? openDatabase(join(dir, 'sides.db')) : openDatabase(pgDb.url, {}, { poolSize: 2, bulk: true }));

  it('has its store, snapshot and copy sides on one database', async () => {
    const db: Database = await open();
    try {
      expect(db.backend).toBe(backend);
      expect(db.sqlite !== undefined).toBe(backend === 'sqlite');
      const chamber = await db.store.createChamber({
        input: { name: `Open ${backend}`, type: 'hq', hq_id: null, address: { street: '1 Way', city: 'Bremen', postal_code: null, country: 'DE' } },
        now: new Date('2026-11-27T10:00:00Z'),
        audit: null,
      });
      // the snapshot side reads what the store wrote
      const ids = await db.snapshot().read(async (tables) => {
        const seen: string[] = [];
        for await (const chunk of tables.chambers()) seen.push(...chunk.map((c) => c.id));
        return seen;
      });
      expect(ids).toContain(chamber.id);
      // the copy side sees the same database (no pull yet: no source, no pending change)
      expect(await db.copy().state()).toMatchObject({ lastRun: 0 });
    } finally {
      await db.close();
    }
  });
});
