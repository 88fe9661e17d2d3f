// npm run bench:server — throughput and latency of the embedded server, each figure also
// as a ratio to a bare Fastify route measured in the same run on the same machine (the
// machines are shared and noisy, so only ratios compare across runs).
//
// The servers run in child processes; autocannon drives them from this one.
// --db postgres: the same table for `serve` on PostgreSQL (a database of its own on
// PGBENCH_URL's server, default the local one), side by side with SQLite in the same run,
// plus POST member through two instances on that database at once. The two backends then take
// turns on each list and get, in rounds, and each ratio is the median of its rounds: this
// machine's load moves within seconds, and a backend measured a minute after the other could
// meet a different machine.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Request } from 'autocannon';
import { busySeconds, cpuSplit, formatSplit, pidsNamed, throughputCeiling } from './lib/cpu-split.js';
import { seededRandom } from './lib/seeded-random.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const CLIENT_ID = 'bench';
const CLIENT_SECRET = 'BenchSecret0123456789';

const children: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'chamberctl-bench-'));
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** The pid of each `serve` by the name given to serve(). */
const servePids = new Map<string, number>();

/** Spawns a node process and resolves with the first stdout match of `pattern`. */
function spawnAndWait(args: string[], pattern: RegExp, env: NodeJS.ProcessEnv = {}, name?: string): Promise<string> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  if (name && child.pid) servePids.set(name, child.pid);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = pattern.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

interface Figure {
  name: string;
  rps: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function measure(
  name: string,
  url: string,
  opts: { headers?: Record<string, string>; requests?: Request[]; seconds?: number; warmUp?: boolean } = {},
): Promise<Figure> {
  const base = { url, connections: CONNECTIONS, headers: opts.headers, requests: opts.requests };
  if (opts.warmUp ?? true) await autocannon({ ...base, duration: 1 });
  const r = await autocannon({ ...base, duration: opts.seconds ?? DURATION });
  const fig = { name, rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
  process.stderr.write(`  measured ${name}: ${fig.rps.toFixed(0)} req/s, p99 ${fig.p99} ms\n`);
  return fig;
}

/** Several measurements of one endpoint as one figure: mean req/s, the worst p99, all errors. */
function combine(figs: Figure[]): Figure {
  return {
    name: figs[0]!.name,
    rps: figs.reduce((a, f) => a + f.rps, 0) / figs.length,
    p99: Math.max(...figs.map((f) => f.p99)),
    errors: figs.reduce((a, f) => a + f.errors, 0),
    non2xx: figs.reduce((a, f) => a + f.non2xx, 0),
  };
}

const WITH_POSTGRES = process.argv.slice(2).join(' ').match(/--db[ =]postgres/) !== null;
const PG_ADMIN = process.env.PGBENCH_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** `chamberctl serve` on `db`; resolves with its base URL once it listens. */
function serve(db: string, name: string, extra: string[] = []): Promise<string> {
  return spawnAndWait(
    [
      'bin/chamberctl.js', 'serve', '--port', '0', '--db', db, '--seed-size', 'large',
      '--client-id', CLIENT_ID, '--client-secret', CLIENT_SECRET, '--quiet', '--json', ...extra,
    ],
    /"base_url":"([^"]+)"/,
    { CHAMBERCTL_CONFIG_DIR: join(dir, `config-${name}`) },
    name,
  );
}

async function bearer(base: string): Promise<Record<string, string>> {
  const tokenRes = await fetch(`${base}/v2/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET }),
  });
  const token = ((await tokenRes.json()) as { access_token: string }).access_token;
  return { authorization: `Bearer ${token}` };
}

function postMember(flagship: string, headers: Record<string, string>, tag: string): Request[] {
  let n = 0;
  const stamp = `${tag}${Date.now().toString(36)}`;
  return [
    {
      method: 'POST',
      path: `/v2/chambers/${flagship}/members`,
      headers: { ...headers, 'content-type': 'application/json' },
      setupRequest: (req) => ({
        ...req,
        body: JSON.stringify({ name: `Bench Member ${n}`, email: `bench.${stamp}.${n++}@example.org`, membership_type: 'standard' }),
      }),
    },
  ];
}

// The lists are asked for with a filter and sort combination and a page among the first 100,
// drawn afresh for every request (from a seeded generator, the same sequence every run), so
// that no cache of answers to a repeated URL could help (the speed issue asks for this).
const { random, pick } = seededRandom();
const CHAMBER_FILTERS = ['', 'filter[type]=hq&', 'filter[type]=subsidiary&', 'filter[status]=active&', 'filter[status]=pending&', 'filter[type]=subsidiary&filter[status]=active&'];
function chambersQuery(): string {
  return `${pick(CHAMBER_FILTERS)}sort=${pick(['name', '-name', 'created_at', '-created_at'])}&page=${1 + random(100)}`;
}
function membersQuery(): string {
  return `${pick(['', 'filter[status]=active&', 'filter[status]=pending&'])}sort=${pick(['name', '-name', 'joined_at', '-joined_at'])}&page=${1 + random(100)}`;
}

/** The machine's cores: the CPU split of a POST member run is a share of them. */
const CORES = availableParallelism();
/** The CPU split of each POST member run, printed with the results. */
const splits: string[] = [];
const splitOf = new Map<string, Awaited<ReturnType<typeof cpuSplit<Figure>>>>();

/**
 * Runs a measurement while reading the CPU time of the load generator (this process), the
 * named `serve` instances and PostgreSQL's processes: what bounds the figure (bench/lib/cpu-split.ts).
 */
async function withCpuSplit(name: string, serves: string[], work: () => Promise<Figure>): Promise<Figure> {
  const groups: Record<string, () => number[]> = { 'load generator': () => [process.pid] };
  for (const s of serves) groups[`serve ${s}`] = () => (servePids.has(s) ? [servePids.get(s)!] : []);
  groups.postgres = () => pidsNamed('postgres');
  const split = await cpuSplit(groups, CORES, work);
  splits.push(`${name}: ${formatSplit(split)}`);
  splitOf.set(name, split);
  return split.result;
}

/** One endpoint of one server, measured for `seconds` (after a 1 s warm-up unless told not to). */
interface Endpoint {
  name: string;
  run(seconds?: number, warmUp?: boolean): Promise<Figure>;
}

/**
 * The endpoints of one server (its large seed: the flagship chamber has 100k members): the
 * lists and gets, then POST member (last: it adds members to the flagship chamber).
 */
async function endpoints(label: string, base: string, serveName: string): Promise<Endpoint[]> {
  const headers = await bearer(base);
  const get = async (path: string) => (await (await fetch(`${base}${path}`, { headers })).json()) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
  const flagship = (await get('/v2/chambers?per_page=1')).data[0].id as string;
  const flagshipMembers = (await get(`/v2/chambers/${flagship}/members?per_page=1`)).meta.total as number;
  const chamberTotal = (await get('/v2/chambers?per_page=1')).meta.total as number;
  process.stderr.write(`${label}: chambers: ${chamberTotal}, members of ${flagship}: ${flagshipMembers}\n`);
  // 1,000 chamber ids from across the directory (ten pages of 100, spread over the list)
  const spread: string[] = [];
  for (let i = 0; i < 10; i++) {
    const page = 1 + Math.floor((i * chamberTotal) / 1000);
    spread.push(...((await get(`/v2/chambers?per_page=100&page=${page}`)).data as { id: string }[]).map((c) => c.id));
  }
  const endpoint = (name: string, url: string, requests?: Request[], auth = true): Endpoint => ({
    name: `${label}: ${name}`,
    run: (seconds, warmUp) => measure(`${label}: ${name}`, url, { ...(auth ? { headers } : {}), requests, seconds, warmUp }),
  });
  const post = endpoint('v2 POST member', `${base}/v2/chambers/${flagship}/members`, postMember(flagship, headers, label.replace(/\W/g, '')), false);
  return [
    endpoint('v2 chambers list (filters, sorts, pages 1-100)', `${base}/v2/chambers`, [
      { setupRequest: (req) => ({ ...req, path: `/v2/chambers?${chambersQuery()}` }) },
    ]),
    endpoint('v2 members list (100k-member chamber, sorts, pages 1-100)', `${base}/v2/chambers/${flagship}/members`, [
      { setupRequest: (req) => ({ ...req, path: `/v2/chambers/${flagship}/members?${membersQuery()}` }) },
    ]),
    endpoint('v2 get chamber by id', `${base}/v2/chambers/${flagship}`),
    // as the lists, a fresh id for each request: one URL asked again and again measures the
    // same row in the same cache lines every time, which no real client does
    endpoint('v2 get chamber by id (1,000 ids)', `${base}/v2/chambers/${flagship}`, [
      { setupRequest: (req) => ({ ...req, path: `/v2/chambers/${pick(spread)}` }) },
    ]),
    { name: post.name, run: (seconds, warmUp) => withCpuSplit(post.name, [serveName], () => post.run(seconds, warmUp)) },
  ];
}

/** Rounds of SQLite and PostgreSQL taking turns on each list and get (--db postgres). */
const ROUNDS = 3;
const ROUND_SECONDS = Math.max(3, Math.round(DURATION / 2));

/**
 * Each endpoint on SQLite, and with PostgreSQL on both backends: the lists and gets in
 * ROUNDS rounds in which the two backends take turns (SQLite first, then PostgreSQL first,
 * ...), so that a change in the machine's load falls on both rather than on whichever ran
 * later; the ratio of each endpoint is the median of its rounds' ratios. POST member runs
 * once on each, one right after the other (its CPU split is printed).
 */
async function measureBackends(sqliteEps: Endpoint[], pgEps: Endpoint[]) {
  const sqlite: Figure[] = [];
  const pg: Figure[] = [];
  const ratios: number[][] = [];
  for (const [i, lite] of sqliteEps.entries()) {
    const other = pgEps[i];
    const isPost = i === sqliteEps.length - 1;
    if (!other || isPost) {
      sqlite.push(await lite.run());
      if (other) pg.push(await other.run());
      if (other) ratios.push([pg.at(-1)!.rps / sqlite.at(-1)!.rps]);
      continue;
    }
    const a: Figure[] = [];
    const b: Figure[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const warmUp = r === 0;
      if (r % 2 === 0) {
        a.push(await lite.run(ROUND_SECONDS, warmUp));
        b.push(await other.run(ROUND_SECONDS, warmUp));
      } else {
        b.push(await other.run(ROUND_SECONDS, warmUp));
        a.push(await lite.run(ROUND_SECONDS, warmUp));
      }
    }
    sqlite.push(combine(a));
    pg.push(combine(b));
    ratios.push(a.map((f, r) => b[r]!.rps / f.rps));
  }
  return { sqlite, pg, ratios };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** POST member through two instances at once, half the connections each; req/s summed. */
async function measureTwoInstances(a: string, b: string): Promise<Figure> {
  const headers = await bearer(a);
  const flagship = ((await (await fetch(`${a}/v2/chambers?per_page=1`, { headers })).json()) as { data: { id: string }[] }).data[0]!.id;
  const half = Math.max(1, Math.floor(CONNECTIONS / 2));
  const run = (url: string, tag: string, duration: number) =>
    autocannon({ url: `${url}/v2/chambers/${flagship}/members`, connections: half, duration, requests: postMember(flagship, headers, tag) });
  await Promise.all([run(a, 'wa', 1), run(b, 'wb', 1)]); // warm-up
  const name = 'postgres, two instances: v2 POST member';
  return withCpuSplit(name, ['pg-a', 'pg-b'], async () => {
    const [ra, rb] = await Promise.all([run(a, 'ia', DURATION), run(b, 'ib', DURATION)]);
    const fig = {
      name,
      rps: ra.requests.average + rb.requests.average,
      p99: Math.max(ra.latency.p99, rb.latency.p99),
      errors: ra.errors + ra.timeouts + rb.errors + rb.timeouts,
      non2xx: ra.non2xx + rb.non2xx,
    };
    process.stderr.write(`  measured ${fig.name}: ${fig.rps.toFixed(0)} req/s, p99 ${fig.p99} ms\n`);
    return fig;
  });
}

async function main() {
  process.stderr.write(
    `starting a bare Fastify route and chamberctl serve with the large seed (100k chambers, 1M members)${WITH_POSTGRES ? ' on SQLite and on PostgreSQL' : ''}...\n`,
  );
  const t0 = Date.now();
  const barePort = spawnAndWait(
    [
      '--input-type=module',
      '-e',
      `import Fastify from 'fastify';
       const app = Fastify({ logger: false });
       app.get('/bare', async () => ({ hello: 'world' }));
       // a list page as bytes already made (set once, below): what sending the page costs alone
       let page = '{}';
       app.put('/bare-page', async (req) => { page = JSON.stringify(req.body); return { ok: true }; });
       app.get('/bare-page', (req, reply) => { reply.type('application/json; charset=utf-8').send(page); });
       await app.listen({ port: 0, host: '127.0.0.1' });
       console.log('port=' + app.server.address().port);`,
    ],
    /port=(\d+)/,
  );
  let pgDb: Awaited<ReturnType<typeof createBenchDatabase>> | undefined;
  if (WITH_POSTGRES) pgDb = await createBenchDatabase();
  const [port, base, pgBase] = await Promise.all([barePort, serve(join(dir, 'bench.db'), 'sqlite'), pgDb ? serve(pgDb.url, 'pg-a') : undefined]);
  const pgBase2 = pgDb ? await serve(pgDb.url, 'pg-b', ['--seed', 'none']) : undefined;
  if (pgDb) await pgDb.settle();
  process.stderr.write(`ready after ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  // the bare page: page 2 of the chambers list, 20 chambers, as serve sends it
  const pageBody = await (await fetch(`${base}/v2/chambers?page=2`, { headers: await bearer(base) })).json();
  await fetch(`http://127.0.0.1:${port}/bare-page`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(pageBody) });

  try {
    const figures: Figure[] = [];
    figures.push(await measure('bare Fastify route', `http://127.0.0.1:${port}/bare`));
    const barePage = await measure('bare Fastify route, a list page made in advance', `http://127.0.0.1:${port}/bare-page`);
    const { sqlite, pg, ratios } = await measureBackends(await endpoints('sqlite', base, 'sqlite'), pgBase ? await endpoints('postgres', pgBase, 'pg-a') : []);
    figures.push(...sqlite, ...pg);
    const two = pgBase && pgBase2 ? await measureTwoInstances(pgBase, pgBase2) : undefined;
    if (two) figures.push(two);

    // The bare route again at the end: the ratio uses the mean of both, so a change in the
    // machine's load during the run shows up as a gap between them rather than as a bias.
    const bareAgain = await measure('bare Fastify route (again)', `http://127.0.0.1:${port}/bare`);
    figures.push(bareAgain);
    const bare = (figures[0]!.rps + bareAgain.rps) / 2;
    const rows = figures.map((f) => ({
      benchmark: f.name,
      'req/s': Math.round(f.rps),
      'p99 ms': f.p99,
      'x bare': +(f.rps / bare).toFixed(2),
      'errors/non-2xx': `${f.errors}/${f.non2xx}`,
    }));
    console.log(
      `\nserver benchmark: ${CONNECTIONS} connections, ${DURATION} s each${pg.length ? ` (lists and gets: ${ROUNDS} rounds of ${ROUND_SECONDS} s per backend, the backends taking turns; req/s the mean, p99 the worst)` : ''}, node ${process.version}`,
    );
    console.table(rows);
    console.log(`bare route: ${Math.round(figures[0]!.rps)} then ${Math.round(bareAgain.rps)} req/s; ratios use the mean`);
    // Not a target: how far the lists are from sending the same bytes with no work at all.
    console.log(
      `bare route sending a list page made in advance (${JSON.stringify(pageBody).length} bytes): ${Math.round(barePage.rps)} req/s, p99 ${barePage.p99} ms; ` +
        sqlite.slice(0, 2).map((f) => `${f.name.replace(/ \(.*/, '')} ${(f.rps / barePage.rps).toFixed(2)}x of it`).join(', '),
    );
    console.log(`\nwhere the ${CORES} cores went during each POST member run (CPU time as a share of cores x wall time):`);
    for (const line of splits) console.log(`  ${line}`);
    const [chambers, members, , , post] = sqlite;
    const checks: (readonly [string, boolean])[] = [
      ...[chambers!, members!].map((f) => [`${f.name} >= 0.25x bare`, f.rps / bare >= 0.25] as const),
      ...[chambers!, members!].map((f) => [`${f.name} p99 < 10 ms`, f.p99 < 10] as const),
      [`sqlite: POST member >= 5000 req/s`, post!.rps >= 5000] as const,
      ['no errors and no non-2xx answers', figures.every((f) => f.errors === 0 && f.non2xx === 0)] as const,
    ];
    if (pg.length) {
      console.log('\npostgres against sqlite, same run (the median of the rounds, and their spread):');
      console.table(
        pg.map((f, i) => ({
          benchmark: f.name.replace(/^postgres: /, ''),
          'x sqlite': +median(ratios[i]!).toFixed(2),
          rounds: ratios[i]!.map((r) => r.toFixed(2)).join(' '),
          'p99 ms': f.p99,
        })),
      );
      for (const i of [0, 1, 2, 3]) checks.push([`${pg[i]!.name} >= 0.5x sqlite`, median(ratios[i]!) >= 0.5]);
      for (const f of pg) checks.push([`${f.name} p99 < 20 ms`, f.p99 < 20]);
      if (two) {
        const ratio = two.rps / pg[4]!.rps;
        console.log(`two instances: ${Math.round(two.rps)} req/s POST member, ${ratio.toFixed(2)}x one instance`);
        // What bounds that ratio on this machine: the share of the cores one instance left
        // unused, and the CPU each request costs (load generator, serve, PostgreSQL) in each run.
        const one = splitOf.get(pg[4]!.name);
        const both = splitOf.get(two.name);
        if (one && both) {
          const perRequest = (s: typeof one, f: Figure) => Math.round((busySeconds(s) * 1e6) / (f.rps * (s.available / CORES)));
          console.log(
            `  at most ${throughputCeiling(one).toFixed(2)}x on this machine: one instance kept ${Math.round((100 * busySeconds(one)) / one.available)}% of the ${CORES} cores busy, ` +
              `at ${perRequest(one, pg[4]!)} µs of CPU a request (load generator, serve, PostgreSQL); two instances spent ${perRequest(both, two)} µs a request`,
          );
        }
        checks.push(['postgres: two instances >= 1.3x one on POST member', ratio >= 1.3]);
      }
    }
    for (const [what, ok] of checks) console.log(`${ok ? 'PASS' : 'MISS'}  ${what}`);
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    await pgDb?.drop();
  }
  process.exit(0);
}

/** A database of its own for the PostgreSQL instances, dropped at the end. */
async function createBenchDatabase(): Promise<{ url: string; settle(): Promise<void>; drop(): Promise<void> }> {
  const { default: pg } = await import('pg');
  const on = async (url: string, text: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(text);
    } finally {
      await c.end();
    }
  };
  const name = `chamberctl_bench_${Date.now().toString(36)}`;
  await on(PG_ADMIN, `CREATE DATABASE "${name}"`);
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    /**
     * After the seed, as after any bulk load: VACUUM ANALYZE (else autovacuum visits the
     * 1.2M new rows while the figures are taken) and a checkpoint (else the seed's WAL is
     * written out, spread over minutes, during them). Seen in the server's log: a checkpoint
     * of 162 s that began during a run.
     */
    async settle() {
      await on(url.toString(), 'VACUUM (ANALYZE)');
      await on(url.toString(), 'CHECKPOINT');
    },
    async drop() {
      await on(PG_ADMIN, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

main().catch((err) => {
  console.error(`bench:server failed: ${(err as Error).message}`);
  process.exit(1);
});
