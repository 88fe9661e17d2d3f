// A database of its own for each PostgreSQL test, on the server every machine of this
// project runs (127.0.0.1:5432, trust authentication). Tests that need it fail, never skip,
// when it is not there, with one line saying how to start it.
import pg from 'pg';

/** The server the tests use; PGTEST_URL points them elsewhere. */
export const PG_ADMIN_URL = process.env.PGTEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const HOW_TO_START = 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start';

export interface TestDatabase {
  /** postgres://… of the new, empty database. */
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A connection to the server's `postgres` database, for what the tests do as its administrator. */
export async function adminClient(): Promise<pg.Client> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5000 });
  await admin.connect();
  return admin;
}

/** Creates an empty database with a unique name; `drop()` removes it (closing its connections). */
export async function createTestDatabase(prefix = 'chamberctl_test'): Promise<TestDatabase> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  let admin: pg.Client;
  try {
    admin = await adminClient();
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    const message = (err as Error).message ?? '';
    if (['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'].includes(code) || /timeout/i.test(message)) {
      throw new Error(`PostgreSQL is not answering at ${redact(PG_ADMIN_URL)}; start it with: ${HOW_TO_START}`);
    }
    throw err;
  }
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const a = await adminClient();
      try {
        await a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await a.end();
      }
    },
  };
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

/** `work` on a connection of its own to the database at `url` (no bound of the storage's on its statements). */
export async function onDatabase<T>(url: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}
