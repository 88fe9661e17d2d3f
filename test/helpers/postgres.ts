// A database of its own for each PostgreSQL test, on the server every machine of this
// project runs (127.0.0.1:5432, trust authentication). Tests that need it fail, never skip,
// when it is not there, with one line saying how to start it.
import postgres from 'postgres';

/** The server the tests use; PGTEST_URL points them elsewhere. */
export const PG_ADMIN_URL = process.env.PGTEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const HOW_TO_START = 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start';

export interface TestDatabase {
  /** postgres://… of the new, empty database. */
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** Creates an empty database with a unique name; `drop()` removes it (closing its connections). */
export async function createTestDatabase(prefix = 'chamberctl_test'): Promise<TestDatabase> {
  const admin = postgres(PG_ADMIN_URL, { max: 1, connect_timeout: 5, onnotice: () => undefined });
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  try {
    await admin.unsafe(`CREATE DATABASE "${name}"`);
  } catch (err) {
    await admin.end({ timeout: 1 }).catch(() => undefined);
    const code = (err as { code?: string }).code ?? '';
    if (['ECONNREFUSED', 'ENOTFOUND', 'CONNECT_TIMEOUT', 'EAI_AGAIN'].includes(code)) {
      throw new Error(`PostgreSQL is not answering at ${redact(PG_ADMIN_URL)}; start it with: ${HOW_TO_START}`);
    }
    throw err;
  }
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const a = postgres(PG_ADMIN_URL, { max: 1, connect_timeout: 5, onnotice: () => undefined });
      try {
        await a.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
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
