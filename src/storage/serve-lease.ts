import { readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { PgPool } from './postgres/pool.js';

// Which `serve` processes have a database open, so that `snapshot import --replace` can refuse
// to replace what a running server answers from. SQLite: a lease file per server beside the
// database (`DB.serve.PID.lock`, its pid checked for liveness: a killed server's file is
// stale, not a refusal). PostgreSQL: a row per instance in `serve_leases`, whose heartbeat the
// instance renews; a row not renewed within LEASE_EXPIRY_S is a crashed instance's. A row, not
// a session advisory lock: behind a transaction-pooling proxy (PgBouncer) the session that
// took an advisory lock is not the instance's.

export interface ServeHolder {
  pid: number;
  host: string;
  url: string;
}

export interface ServeLeases {
  /** Held by a server from its start to its stop; returns the release. */
  hold(holder: ServeHolder): Promise<() => Promise<void>>;
  /** The live servers that hold the database now. */
  holders(): Promise<ServeHolder[]>;
}

const LEASE_RENEW_MS = 10_000;
const LEASE_EXPIRY_S = 30;

export const noLeases: ServeLeases = { hold: async () => async () => undefined, holders: async () => [] };

export function sqliteLeases(path: string): ServeLeases {
  if (path === ':memory:') return noLeases;
  const prefix = `${basename(path)}.serve.`;
  return {
    async hold(holder) {
      const file = join(dirname(path), `${prefix}${holder.pid}.lock`);
      try {
        writeFileSync(file, `${JSON.stringify(holder)}\n`, { mode: 0o600 });
      } catch {
        return async () => undefined; // a directory it cannot write (a read-only database): no lease, no refusal
      }
      return async () => {
        try {
          unlinkSync(file);
        } catch {
          // gone already
        }
      };
    },
    async holders() {
      let names: string[];
      try {
        names = readdirSync(dirname(path)).filter((n) => n.startsWith(prefix) && n.endsWith('.lock'));
      } catch {
        return [];
      }
      const live: ServeHolder[] = [];
      for (const name of names) {
        const file = join(dirname(path), name);
        let holder: ServeHolder;
        try {
          holder = JSON.parse(readFileSync(file, 'utf8')) as ServeHolder;
        } catch {
          continue;
        }
        if (alive(holder.pid)) live.push(holder);
        else {
          try {
            unlinkSync(file); // a server that was killed: its lease is stale
          } catch {
            // another reader removed it
          }
        }
      }
      return live;
    },
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}

export function pgLeases(pool: PgPool): ServeLeases {
  const table = `CREATE TABLE IF NOT EXISTS serve_leases (
    id text PRIMARY KEY, pid integer NOT NULL, host text NOT NULL, url text NOT NULL, renewed_at timestamptz NOT NULL DEFAULT now())`;
  return {
    async hold(holder) {
      const id = `${holder.host}/${holder.pid}/${Date.now()}`;
      await pool.execute(table).catch((e: { code?: string }) => {
        if (e.code !== '23505' && e.code !== '42P07') throw e; // another instance made it just now
      });
      await pool.execute('INSERT INTO serve_leases (id, pid, host, url) VALUES ($1, $2, $3, $4)', [id, holder.pid, holder.host, holder.url]);
      const renew = setInterval(() => {
        pool.execute('UPDATE serve_leases SET renewed_at = now() WHERE id = $1', [id]).catch(() => undefined); // an outage: renewed later
      }, LEASE_RENEW_MS);
      renew.unref();
      return async () => {
        clearInterval(renew);
        await pool.execute('DELETE FROM serve_leases WHERE id = $1', [id]).catch(() => undefined);
      };
    },
    async holders() {
      const [exists] = await pool.query<{ t: string | null }>("SELECT to_regclass('serve_leases')::text AS t");
      if (!exists?.t) return [];
      return pool.query<ServeHolder>(
        `SELECT pid, host, url FROM serve_leases WHERE renewed_at > now() - make_interval(secs => $1) ORDER BY renewed_at DESC`,
        [LEASE_EXPIRY_S],
      );
    },
  };
}
