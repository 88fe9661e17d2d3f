// npm run bench:pooler: what a connection pooler in front of PostgreSQL costs `serve`, and what
// its --pg-pooler transaction (no statement prepared by name, nothing kept per session) costs
// by itself (docs/operations/shared-deployment.md, "Through PgBouncer"). Three instances on one
// database with the demo data, measured in turns, several rounds, on the same lists:
//   direct      serve --db postgres://…:5432 (named prepared statements, the default)
//   unnamed     serve --db postgres://…:5432 --pg-pooler transaction
//   pgbouncer   serve --db postgres://…:PGBOUNCER --pg-pooler transaction, through PgBouncer in
//               transaction pooling with docs/operations/deploy/pgbouncer.ini
// It prints each one's req/s and its ratio to direct (the median of the rounds). Needs PostgreSQL
// at PGBENCH_URL (default postgres://postgres@127.0.0.1:5432/postgres) and pgbouncer on PATH.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';

const ADMIN = process.env.PGBENCH_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 4);
const CONNECTIONS = 10;
const PASSWORD = 'BenchPooler0123456789';
const CLIENT = { id: 'bench', secret: 'BenchSecret0123456789abcdef' };

const children: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'chamberctl-bench-pooler-'));
chmodSync(dir, 0o755);
const name = `chamberctl_bench_pooler_${process.pid}`;

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

async function admin<T>(work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: ADMIN });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

/** PgBouncer with the docs' configuration, as the postgres user when this runs as root (it refuses root). */
async function startPgBouncer(pgUrl: URL): Promise<number> {
  const port = await freePort();
  const config = readFileSync('docs/operations/deploy/pgbouncer.ini', 'utf8')
    .replace('host=127.0.0.1 port=5432 dbname=directory', `host=${pgUrl.hostname} port=${pgUrl.port || 5432} dbname=${name}`)
    .replace('listen_port = 6432', `listen_port = ${port}`)
    .replace('/etc/pgbouncer/userlist.txt', join(dir, 'userlist.txt'))
    .replace('/var/log/postgresql/pgbouncer.log', join(dir, 'pgbouncer.log'))
    .replace('/run/postgresql/pgbouncer.pid', join(dir, 'pgbouncer.pid'));
  writeFileSync(join(dir, 'pgbouncer.ini'), config);
  writeFileSync(join(dir, 'userlist.txt'), `"${pgUrl.username}" "${PASSWORD}"\n`, { mode: 0o600 });
  const asUser: { uid?: number; gid?: number } = {};
  if (process.getuid?.() === 0) {
    asUser.uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    asUser.gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    for (const f of ['', 'pgbouncer.ini', 'userlist.txt']) chownSync(join(dir, f), asUser.uid, asUser.gid); // its log and pid files go here too
  }
  children.push(spawn('pgbouncer', [join(dir, 'pgbouncer.ini')], { stdio: 'inherit', ...asUser }));
  for (let i = 0; i < 100; i++) {
    const c = new pg.Client({ host: '127.0.0.1', port, user: pgUrl.username, password: PASSWORD, database: 'directory' });
    try {
      await c.connect();
      await c.end();
      return port;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`PgBouncer did not answer on port ${port}: see ${join(dir, 'pgbouncer.log')}`);
}

/** The built serve on `db`; its base URL once it serves. */
async function serve(label: string, db: string, extra: string[]): Promise<string> {
  const child = spawn(process.execPath, ['bin/chamberctl.js', 'serve', '--port', '0', '--db', db, '--seed', 'demo', '--quiet', '--json', '--client-id', CLIENT.id, '--client-secret', CLIENT.secret, ...extra], {
    env: { ...process.env, CHAMBERCTL_CONFIG_DIR: join(dir, `config-${label}`) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = /"base_url":"([^"]+)"/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`serve (${label}) exited ${code}`)));
  });
}

async function token(base: string): Promise<string> {
  const r = await fetch(`${base}/v2/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: CLIENT.id, client_secret: CLIENT.secret }),
  });
  return ((await r.json()) as { access_token: string }).access_token;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  const direct = new URL(ADMIN);
  direct.pathname = `/${name}`;
  const pooled = new URL(direct);
  pooled.port = String(await startPgBouncer(direct));
  pooled.password = PASSWORD;
  pooled.pathname = '/directory'; // the database's name in pgbouncer.ini
  const bases: Record<string, string> = {};
  bases.direct = await serve('direct', direct.toString(), []); // migrates and seeds
  bases.unnamed = await serve('unnamed', direct.toString(), ['--pg-pooler', 'transaction']);
  bases.pgbouncer = await serve('pgbouncer', pooled.toString(), ['--pg-pooler', 'transaction']);
  const chamber = await (async () => {
    const t = await token(bases.direct!);
    const r = await fetch(`${bases.direct}/v2/chambers?per_page=1&sort=name`, { headers: { authorization: `Bearer ${t}` } });
    return ((await r.json()) as { data: { id: string }[] }).data[0]!.id;
  })();
  const workloads = { 'chambers list': '/v2/chambers?per_page=20&sort=name', 'members list': `/v2/chambers/${chamber}/members?per_page=20` };
  const tokens = Object.fromEntries(await Promise.all(Object.entries(bases).map(async ([k, b]) => [k, await token(b)] as const)));
  const rps: Record<string, Record<string, number[]>> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [w, path] of Object.entries(workloads)) {
      // in turns, the order moved each round
      const order = Object.keys(bases).map((_, i, all) => all[(i + round) % all.length]!);
      for (const k of order) {
        const r = await autocannon({ url: `${bases[k]}${path}`, connections: CONNECTIONS, duration: SECONDS, headers: { authorization: `Bearer ${tokens[k]}` } });
        if (r.non2xx || r.errors) throw new Error(`${k}, ${w}: ${r.non2xx} answers other than 2xx, ${r.errors} errors`);
        ((rps[w] ??= {})[k] ??= []).push(r.requests.average);
        process.stderr.write(`  round ${round + 1}, ${w}, ${k}: ${r.requests.average.toFixed(0)} req/s\n`);
      }
    }
  }
  const connections = await admin(async (c) => (await c.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name])).rows[0]!.n);
  console.log(`\nPostgreSQL through PgBouncer, against direct connections (${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} connections; the median of the rounds)`);
  console.table(
    Object.fromEntries(
      Object.entries(rps).map(([w, byKind]) => [
        w,
        Object.fromEntries(Object.entries(byKind).map(([k, xs]) => [k, `${median(xs).toFixed(0)} req/s (${(median(xs) / median(byKind.direct!)).toFixed(2)}x)`])),
      ]),
    ),
  );
  console.log(`PostgreSQL connections to the database at the end: ${connections} (two direct pools of up to 10, and PgBouncer's)`);
}

try {
  await main();
} finally {
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1500));
  await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
}
