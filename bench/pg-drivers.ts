// npm run bench:pg-drivers [-- --size standard] — the two PostgreSQL drivers, `postgres`
// (porsager; what PgStorage uses) and `pg`, on the statements the storage sends for the
// four endpoints of bench/server.ts: v2 chambers list, v2 members list of the 100k-member
// flagship chamber, v2 get chamber by id, v2 POST member.
//
// How: a database of its own is seeded (large by default, as `serve --seed-size large`;
// `--size standard` for a quick run) and dropped at the end. A PgStorage with `onQuery`
// records the statements (text and parameters) that the storage methods a route calls send,
// for 200 varied requests per endpoint. Each endpoint's recording is then replayed by 10
// concurrent workers (a request's statements in sequence, as the server sends them) for
// BENCH_DURATION seconds (default 6) through each driver, both as prepared statements on a
// pool of 10: three rounds per endpoint, the drivers' order alternating, reported as the
// median and the range of the three. The machine is shared and noisy: only figures from
// the same run compare, and the per-round ratio shows how much the noise moves them. The
// database server shares the machine's cores, so where its own work dominates (deep list
// pages) throughput hardly tells the drivers apart; this process's CPU time per statement
// is their own cost, and is printed too.
//
// What it does not measure: the HTTP server, the routes, JSON and the storage's own code
// around the statements (bench/server.ts measures all of that); rows are decoded by each
// driver but not turned into resources. POST member replays its INSERT with a fresh member
// id and e-mail each time (the recorded values with a unique prefix), so every replay adds
// a member, as a real POST does.
import { deepStrictEqual } from 'node:assert/strict';
import pg from 'pg';
import postgres from 'postgres';
import { PER_PAGE_DEFAULT } from '../src/contract/index.js';
import { newId } from '../src/storage/ids.js';
import { emailKey } from '../src/storage/store.js';
import { PgStorage } from '../src/storage/postgres/pg-storage.js';
import { seededRandom } from './lib/seeded-random.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 6);
const WORKERS = 10;
const ROUNDS = 3;
const REQUESTS = 200;
const PG_ADMIN = process.env.PGBENCH_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const sizeArg = /--size[ =](\S+)/.exec(process.argv.slice(2).join(' '))?.[1] ?? 'large';
if (sizeArg !== 'large' && sizeArg !== 'standard') {
  console.error(`--size must be large or standard, not ${JSON.stringify(sizeArg)}`);
  process.exit(2);
}
const SIZE: 'large' | 'standard' = sizeArg;

interface Statement {
  text: string;
  params: unknown[];
}
interface Endpoint {
  name: string;
  /** Each request's statements, in the order the storage sent them. */
  requests: Statement[][];
  /** Recorded parameter values that must differ on every replay (a new member's id and e-mail). */
  fresh: Set<unknown>;
}
interface Driver {
  name: string;
  query(text: string, params: unknown[]): Promise<unknown[]>;
  end(): Promise<void>;
}

// The same filter, sort and page combinations as bench/server.ts draws for its URLs, from
// the same kind of seeded generator (the same sequence every run).
const { random, pick } = seededRandom();
const CHAMBER_FILTERS = [{}, { type: 'hq' }, { type: 'subsidiary' }, { status: 'active' }, { status: 'pending' }, { type: 'subsidiary', status: 'active' }] as const;
const MEMBER_FILTERS = [{}, { status: 'active' }, { status: 'pending' }] as const;
const sortOf = <F extends string>(fields: readonly F[]) => ({ field: pick(fields), desc: random(2) === 1 });
const page = () => ({ page: 1 + random(100), perPage: PER_PAGE_DEFAULT });

/** Records the statements the storage sends for each endpoint, calling it as the routes do. */
async function capture(storage: PgStorage, recording: { statements?: Statement[] }): Promise<Endpoint[]> {
  const record = async (fn: () => Promise<unknown>) => {
    const statements: Statement[] = [];
    recording.statements = statements;
    await fn();
    recording.statements = undefined;
    return statements;
  };
  const seq = async (fn: (i: number) => Promise<unknown>) => {
    const out: Statement[][] = [];
    for (let i = 0; i < REQUESTS; i++) out.push(await record(() => fn(i)));
    return out;
  };

  const flagship = (JSON.parse((await storage.listChambers({ page: 1, perPage: 1 })).docs[0]!) as { id: string }).id;
  const chamberIds = new Set<string>();
  const chambers = await seq(async () => {
    const listed = await storage.listChambers({ ...page(), ...pick(CHAMBER_FILTERS), sort: sortOf(['name', 'created_at'] as const) });
    for (const doc of listed.docs) chamberIds.add((JSON.parse(doc) as { id: string }).id);
  });
  const members = await seq(async () => {
    const listed = await storage.listMembers(flagship, { ...page(), ...pick(MEMBER_FILTERS), sort: sortOf(['name', 'joined_at'] as const) });
    if (listed.total === 0) await storage.chamberType(flagship); // the route's 404 check
  });
  // Chambers seen in the lists above: varied ids from pages spread over the table.
  const ids = [...chamberIds].slice(0, REQUESTS);
  const getChamber = await seq(async (i) => storage.getChamber(ids[i % ids.length]!));
  const fresh = new Set<unknown>();
  const stamp = Date.now().toString(36);
  const post = await seq(async (i) => {
    const id = newId('mb');
    const email = `Bench.${stamp}.${i}@example.org`;
    for (const v of [id, email, emailKey(email)]) fresh.add(v);
    await storage.chamberType(flagship); // the route's check that the chamber exists
    await storage.addMember(flagship, { name: `Bench Member ${i}`, email, phone: null, membership_type: 'standard' }, new Date(), undefined, id);
  });
  return [
    { name: 'v2 chambers list', requests: chambers, fresh: new Set() },
    { name: 'v2 members list (flagship)', requests: members, fresh: new Set() },
    { name: 'v2 get chamber by id', requests: getChamber, fresh: new Set() },
    { name: 'v2 POST member', requests: post, fresh },
  ];
}

/** `postgres` as PgStorage.open configures it, each statement prepared as the storage does. */
function porsager(url: string): Driver {
  const sql = postgres(url, { max: WORKERS, prepare: true, onnotice: () => undefined });
  return {
    name: 'postgres',
    query: (text, params) => sql.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true }),
    end: () => sql.end({ timeout: 5 }),
  };
}

/**
 * `pg`, each distinct text a named prepared statement (prepared once per connection). Its
 * default decoding already returns what the storage reads: the columns are text, int4
 * (count(*)::int) and int8 (the totals, a string in both drivers, turned into a number by
 * the storage); no timestamptz, bytea or json column is read on these paths. checkDecoding()
 * verifies that both drivers return equal rows.
 */
function brianc(url: string): Driver {
  const pool = new pg.Pool({ connectionString: url, max: WORKERS });
  // An idle connection ended by the server (the DROP DATABASE … WITH (FORCE) of an
  // interrupted run) is an 'error' event, which would otherwise crash the process.
  pool.on('error', () => undefined);
  const names = new Map<string, string>();
  const nameOf = (text: string) => names.get(text) ?? (names.set(text, `bench_${names.size}`), names.get(text)!);
  return {
    name: 'pg',
    query: async (text, params) => (await pool.query({ name: nameOf(text), text, values: params })).rows,
    end: () => pool.end(),
  };
}

let replays = 0;
/** The request's statements with the values that must be fresh made unique for this replay. */
function replayOf(endpoint: Endpoint, request: Statement[]): Statement[] {
  if (endpoint.fresh.size === 0) return request;
  const prefix = `r${replays++}.`;
  return request.map((s) => ({ text: s.text, params: s.params.map((p) => (endpoint.fresh.has(p) ? `${prefix}${p as string}` : p)) }));
}

/**
 * Before measuring: both drivers return equal rows for an endpoint's first 20 requests (so
 * pg needs no type parser of its own), and a replayed INSERT does add its member.
 */
async function checkDecoding(endpoint: Endpoint, a: Driver, b: Driver): Promise<void> {
  for (const request of endpoint.requests.slice(0, 20)) {
    for (const s of replayOf(endpoint, request)) {
      // plain arrays: `postgres` returns its own Array subclass
      const [ra, rb] = [[...(await a.query(s.text, s.params))], [...(await b.query(s.text, s.params))]];
      if (/^\s*WITH m AS \(\s*INSERT/.test(s.text)) {
        // POST member: the first run adds the member (its id and e-mail are fresh), the second finds it there
        deepStrictEqual([ra, rb], [[{ added: 1 }], [{ added: 0 }]], `${endpoint.name}: the replayed INSERT did not add one member`);
      } else {
        deepStrictEqual(rb, ra, `${endpoint.name}: ${a.name} and ${b.name} decode ${s.text} differently`);
      }
    }
  }
}

interface Figure {
  rate: number;
  p99: number;
  /** This process's CPU time per statement, µs: the driver's own cost (plus the loop's, the same for both). */
  cpu: number;
}

/** WORKERS loops, each replaying the next recorded request, for `seconds`. */
async function replay(driver: Driver, endpoint: Endpoint, seconds: number): Promise<Figure> {
  const latencies: number[] = [];
  let next = 0;
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (performance.now() < deadline) {
        for (const s of replayOf(endpoint, endpoint.requests[next++ % endpoint.requests.length]!)) {
          const t = performance.now();
          await driver.query(s.text, s.params);
          latencies.push(performance.now() - t);
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  latencies.sort((x, y) => x - y);
  return { rate: latencies.length / elapsed, p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0, cpu: (cpu.user + cpu.system) / latencies.length };
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

async function main() {
  const db = await createBenchDatabase();
  const cleanup = async () => {
    await db.drop().catch((err: Error) => console.error(`could not drop ${db.name}: ${err.message}`));
  };
  process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));
  process.once('SIGTERM', () => void cleanup().then(() => process.exit(143)));
  const drivers: Driver[] = [];
  try {
    const recording: { statements?: Statement[] } = {};
    const storage = await PgStorage.open(db.url, { onQuery: (text, params) => recording.statements?.push({ text, params: [...params] }) });
    process.stderr.write(`seeding the ${SIZE} demo data into ${db.name}...\n`);
    const t0 = performance.now();
    const seeded = await storage.seedDemo({ size: SIZE, now: new Date() });
    process.stderr.write(`seeded ${JSON.stringify(seeded)} in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    const endpoints = await capture(storage, recording);
    await storage.close();
    for (const e of endpoints) {
      const statements = e.requests.flat();
      process.stderr.write(`${e.name}: ${e.requests.length} requests, ${statements.length} statements, ${new Set(statements.map((s) => s.text)).size} distinct texts\n`);
    }

    drivers.push(porsager(db.url), brianc(db.url));
    for (const e of endpoints) await checkDecoding(e, drivers[0]!, drivers[1]!);

    const rows = [];
    let widest = 0;
    for (const e of endpoints) {
      const runs = new Map<string, Figure[]>(drivers.map((d) => [d.name, []]));
      for (let round = 0; round < ROUNDS; round++) {
        for (const d of round % 2 === 0 ? drivers : [...drivers].reverse()) {
          await replay(d, e, 1); // warm-up: connections open, statements prepared on each
          const f = await replay(d, e, DURATION);
          runs.get(d.name)!.push(f);
          process.stderr.write(`  ${e.name}, round ${round + 1}, ${d.name}: ${f.rate.toFixed(0)} statements/s, p99 ${f.p99.toFixed(2)} ms, ${f.cpu.toFixed(0)} µs CPU per statement\n`);
        }
      }
      const [a, b] = [runs.get('postgres')!, runs.get('pg')!];
      const range = (fs: Figure[]) => `${Math.min(...fs.map((f) => f.rate)).toFixed(0)}–${Math.max(...fs.map((f) => f.rate)).toFixed(0)}`;
      const ratios = a.map((f, i) => b[i]!.rate / f.rate);
      for (const fs of [a, b]) {
        const rates = fs.map((f) => f.rate);
        widest = Math.max(widest, (Math.max(...rates) - Math.min(...rates)) / median(rates));
      }
      rows.push({
        endpoint: e.name,
        'postgres st/s': Math.round(median(a.map((f) => f.rate))),
        'postgres min–max': range(a),
        'pg st/s': Math.round(median(b.map((f) => f.rate))),
        'pg min–max': range(b),
        'pg/postgres': +(median(b.map((f) => f.rate)) / median(a.map((f) => f.rate))).toFixed(2),
        'ratio per round': ratios.map((r) => r.toFixed(2)).join(' '),
        'postgres p99 ms': +median(a.map((f) => f.p99)).toFixed(2),
        'pg p99 ms': +median(b.map((f) => f.p99)).toFixed(2),
        'postgres µs CPU/st': Math.round(median(a.map((f) => f.cpu))),
        'pg µs CPU/st': Math.round(median(b.map((f) => f.cpu))),
      });
    }
    console.log(`\nPostgreSQL drivers on the storage's statements: ${SIZE} seed, ${WORKERS} workers, pools of ${WORKERS}, ${DURATION} s x ${ROUNDS} rounds, node ${process.version}`);
    console.table(rows);
    console.log(`spread: the widest min–max of one driver's ${ROUNDS} rounds is ${(widest * 100).toFixed(0)}% of its median`);
  } finally {
    for (const d of drivers) await d.end();
    await cleanup();
  }
}

/** A database of its own on PG_ADMIN's server (as bench/server.ts makes one). */
async function createBenchDatabase(): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `chamberctl_pgdrivers_${Date.now().toString(36)}`;
  const admin = () => postgres(PG_ADMIN, { max: 1, onnotice: () => undefined });
  const a = admin();
  await a.unsafe(`CREATE DATABASE "${name}"`);
  await a.end();
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  let dropped: Promise<void> | undefined;
  return {
    name,
    url: url.toString(),
    drop: () =>
      (dropped ??= (async () => {
        const d = admin();
        await d.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await d.end();
      })()),
  };
}

main().catch((err) => {
  console.error(`bench:pg-drivers failed: ${(err as Error).stack ?? err}`);
  process.exit(1);
});
