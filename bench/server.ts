// npm run bench:server — throughput and latency of the embedded server, each figure also
// as a ratio to a bare Fastify route measured in the same run on the same machine (the
// machines are shared and noisy, so only ratios compare across runs), and each list and POST
// member as a ratio to its same-work floor: the same database work and the same answer with
// nothing else, in a process of its own on the same database (bench/same-work-floor.ts). A
// list page has work no server can skip (its query, its count, its JSON); the ratio to the
// floor is what our layers cost on top of it.
//
// `serve` runs as by default, one log line per request (to a file of the run, as
// `serve 2>>serve.log` would), unlike the floor, which logs nothing.
// The servers run in child processes; autocannon drives them from this one.
// --db postgres: the same table for `serve` on PostgreSQL (a database of its own on
// PGBENCH_URL's server, default the local one), side by side with SQLite in the same run, with
// its own floor on a `pg` Pool of --pool-size's default (10), plus POST member through two
// instances on that database at once. Every target of a workload (serve and floor, on each
// backend) takes turns with the others in rounds, in one order and then the reverse, and each
// ratio is the median of its rounds: this machine's load moves within seconds, and a target
// measured a minute after the other could meet a different machine. Before the rounds, each
// target reads every list page once (bench/lib/list-queries.ts), so that all of them read
// each page by the same seek: the instances learn page boundaries as they serve, and one that
// had served more requests would read fewer pages with OFFSET.
// BENCH_SQLITE_COPY=FILE: start SQLite's serve on a copy of FILE, a database a `serve
// --seed-size large` left (with the client `bench`), instead of seeding one (~50 s).
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, openSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Request } from 'autocannon';
import { busySeconds, cpuSecondsOf, cpuSplit, formatSplit, pidsNamed, throughputCeiling } from './lib/cpu-split.js';
import { listPaths, readEveryListPage } from './lib/list-queries.js';
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

/** The pid of each `serve` and floor by the name given to it. */
const servePids = new Map<string, number>();

/**
 * Spawns a node process and resolves with the first stdout match of `pattern`; its stderr goes
 * to this process's, or to the file `stderrFile` (appended).
 */
function spawnAndWait(args: string[], pattern: RegExp, env: NodeJS.ProcessEnv = {}, name?: string, stderrFile?: string): Promise<string> {
  const stderr = stderrFile ? openSync(stderrFile, 'a') : 'inherit';
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', stderr] });
  children.push(child);
  if (name && child.pid) servePids.set(name, child.pid);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = pattern.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}${stderrFile ? ` (its stderr: ${stderrFile})` : ''}`)));
  });
}

interface Figure {
  name: string;
  rps: number;
  p99: number;
  errors: number;
  non2xx: number;
  /**
   * The CPU time (µs) the server's own process spent per request, when its pid is known: a
   * steadier figure than req/s on a busy machine, where req/s also measures the share of
   * the cores the process got. (PostgreSQL's own CPU is not in it.)
   */
  cpuUs?: number;
  /**
   * PostgreSQL's CPU time (µs) per request, for a target on PostgreSQL: all of the server's
   * processes, so another user of the same server during the run counts too.
   */
  pgUs?: number;
}

async function measure(
  name: string,
  url: string,
  opts: { headers?: Record<string, string>; requests?: Request[]; seconds?: number; warmUp?: boolean; pid?: number; postgres?: boolean } = {},
): Promise<Figure> {
  const base = { url, connections: CONNECTIONS, headers: opts.headers, requests: opts.requests };
  if (opts.warmUp ?? true) await autocannon({ ...base, duration: 1 });
  const cpu = opts.pid ? cpuSecondsOf([opts.pid]) : 0;
  const pgPids = opts.postgres ? pidsNamed('postgres') : [];
  const pgCpu = cpuSecondsOf(pgPids);
  const r = await autocannon({ ...base, duration: opts.seconds ?? DURATION });
  const fig: Figure = { name, rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
  if (opts.pid) fig.cpuUs = ((cpuSecondsOf([opts.pid]) - cpu) * 1e6) / r.requests.total;
  // the backends of this run's connections were all open before it (the pools are warm)
  if (opts.postgres) fig.pgUs = ((cpuSecondsOf(pgPids) - pgCpu) * 1e6) / r.requests.total;
  process.stderr.write(`  measured ${name}: ${fig.rps.toFixed(0)} req/s, p99 ${fig.p99} ms${fig.cpuUs ? `, ${fig.cpuUs.toFixed(0)} µs CPU a request` : ''}\n`);
  return fig;
}

const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;

/** Several measurements of one endpoint as one figure: mean req/s and CPU, the worst p99, all errors. */
function combine(figs: Figure[]): Figure {
  return {
    name: figs[0]!.name,
    rps: mean(figs.map((f) => f.rps)),
    p99: Math.max(...figs.map((f) => f.p99)),
    errors: figs.reduce((a, f) => a + f.errors, 0),
    non2xx: figs.reduce((a, f) => a + f.non2xx, 0),
    ...(figs.every((f) => f.cpuUs !== undefined) && { cpuUs: mean(figs.map((f) => f.cpuUs!)) }),
    ...(figs.every((f) => f.pgUs !== undefined) && { pgUs: mean(figs.map((f) => f.pgUs!)) }),
  };
}

const WITH_POSTGRES = process.argv.slice(2).join(' ').match(/--db[ =]postgres/) !== null;
const PG_ADMIN = process.env.PGBENCH_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** serve's --pool-size default, and the floor's pool. */
const PG_POOL_SIZE = 10;

/** Where each `serve`'s log lines go: a file of the run (its size is printed at the end). */
const logFile = (name: string) => join(dir, `serve-${name}.log`);

/** `chamberctl serve` on `db`, logging as by default; resolves with its base URL once it listens. */
function serve(db: string, name: string, extra: string[] = []): Promise<string> {
  return spawnAndWait(
    [
      'bin/chamberctl.js', 'serve', '--port', '0', '--db', db, '--seed-size', 'large',
      '--client-id', CLIENT_ID, '--client-secret', CLIENT_SECRET, '--json', ...extra,
    ],
    /"base_url":"([^"]+)"/,
    { CHAMBERCTL_CONFIG_DIR: join(dir, `config-${name}`) },
    name,
    logFile(name),
  );
}

/** The same-work floor (bench/same-work-floor.ts) on `db`, once serve has made it; its base URL. */
async function floor(db: string, name: string): Promise<string> {
  const port = await spawnAndWait(['dist/bench/same-work-floor.js', '--db', db, '--pool-size', String(PG_POOL_SIZE)], /port=(\d+)/, {}, name);
  return `http://127.0.0.1:${port}`;
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

// The lists: each request a filter and sort combination and a page drawn from a seeded
// generator (bench/lib/list-queries.ts); each target (serve or floor, on each backend) draws
// from a generator of its own with the same seed, so all meet the same sequence of URLs.
const { pick } = seededRandom();

/** The machine's cores: the CPU split of a POST member run is a share of them. */
const CORES = availableParallelism();
type Split = Awaited<ReturnType<typeof cpuSplit<Figure>>>;
/** The CPU split of each POST member target, summed over its rounds. */
const splitOf = new Map<string, Split>();

function addSplits(a: Split | undefined, b: Split): Split {
  if (!a) return b;
  const sum = (x: Record<string, number>, y: Record<string, number>) => Object.fromEntries(Object.keys(y).map((k) => [k, (x[k] ?? 0) + y[k]!]));
  return { result: b.result, available: a.available + b.available, seconds: sum(a.seconds, b.seconds), rest: sum(a.rest, b.rest) as Split['rest'] };
}

/**
 * Runs a measurement while reading the CPU time of the load generator (this process), the
 * named `serve` or floor processes and PostgreSQL's processes: what bounds the figure (bench/lib/cpu-split.ts).
 */
async function withCpuSplit(name: string, serves: string[], work: () => Promise<Figure>): Promise<Figure> {
  const groups: Record<string, () => number[]> = { 'load generator': () => [process.pid] };
  for (const s of serves) groups[s] = () => (servePids.has(s) ? [servePids.get(s)!] : []);
  groups.postgres = () => pidsNamed('postgres');
  const split = await cpuSplit(groups, CORES, work);
  splitOf.set(name, addSplits(splitOf.get(name), split));
  return split.result;
}

/** One endpoint of one server, measured for `seconds` (after a 1 s warm-up unless told not to). */
interface Endpoint {
  name: string;
  run(seconds?: number, warmUp?: boolean): Promise<Figure>;
}

/** What is measured, in this order: the lists and gets, then POST member (last: it adds members to the flagship chamber). */
const WORKLOADS = {
  chambers: 'v2 chambers list (filters, sorts, pages 1-100)',
  members: 'v2 members list (100k-member chamber, sorts, pages 1-100)',
  events: 'v2 events list (1,000-event chamber, filters, all pages)',
  get: 'v2 get chamber by id',
  get1000: 'v2 get chamber by id (1,000 ids)',
  post: 'v2 POST member',
} as const;
type Workload = keyof typeof WORKLOADS;
const LISTS = ['chambers', 'members', 'events'] as const satisfies Workload[];

/** The flagship chamber (its large seed: 100k members, 1,000 events) and the directory's size. */
async function flagshipOf(label: string, base: string, headers: Record<string, string>) {
  const get = async (path: string) => (await (await fetch(`${base}${path}`, { headers })).json()) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
  const flagship = (await get('/v2/chambers?per_page=1')).data[0].id as string;
  const flagshipMembers = (await get(`/v2/chambers/${flagship}/members?per_page=1`)).meta.total as number;
  const chamberTotal = (await get('/v2/chambers?per_page=1')).meta.total as number;
  process.stderr.write(`${label}: chambers: ${chamberTotal}, members of ${flagship}: ${flagshipMembers}\n`);
  return { flagship, chamberTotal, get };
}

/**
 * The endpoints of one server at `base`, by workload: `serve` (all of them) or its floor (the
 * lists and POST member). Both are sent the same requests, token included.
 */
async function endpoints(label: string, base: string, headers: Record<string, string>, flagship: string, spread?: string[]): Promise<Partial<Record<Workload, Endpoint>>> {
  const endpoint = (w: Workload, url: string, requests?: Request[], auth = true): Endpoint => ({
    name: `${label}: ${WORKLOADS[w]}`,
    run: (seconds, warmUp) =>
      measure(`${label}: ${WORKLOADS[w]}`, url, { ...(auth ? { headers } : {}), requests, seconds, warmUp, pid: servePids.get(label), postgres: label.startsWith('postgres') }),
  });
  const q = listPaths(flagship);
  const post = endpoint('post', `${base}/v2/chambers/${flagship}/members`, postMember(flagship, headers, label.replace(/\W/g, '')), false);
  const eps: Partial<Record<Workload, Endpoint>> = {
    chambers: endpoint('chambers', `${base}/v2/chambers`, [{ setupRequest: (req) => ({ ...req, path: q.chambers() }) }]),
    members: endpoint('members', `${base}/v2/chambers/${flagship}/members`, [{ setupRequest: (req) => ({ ...req, path: q.members() }) }]),
    events: endpoint('events', `${base}/v2/chambers/${flagship}/events`, [{ setupRequest: (req) => ({ ...req, path: q.events() }) }]),
    post: { name: post.name, run: (seconds, warmUp) => withCpuSplit(post.name, [label], () => post.run(seconds, warmUp)) },
  };
  if (spread) {
    eps.get = endpoint('get', `${base}/v2/chambers/${flagship}`);
    // as the lists, a fresh id for each request: one URL asked again and again measures the
    // same row in the same cache lines every time, which no real client does
    eps.get1000 = endpoint('get1000', `${base}/v2/chambers/${flagship}`, [{ setupRequest: (req) => ({ ...req, path: `/v2/chambers/${pick(spread)}` }) }]);
  }
  return eps;
}

/** 1,000 chamber ids from across the directory (ten pages of 100, spread over the list). */
async function spreadIds(get: (path: string) => Promise<{ data: { id: string }[] }>, chamberTotal: number): Promise<string[]> {
  const spread: string[] = [];
  for (let i = 0; i < 10; i++) {
    const page = 1 + Math.floor((i * chamberTotal) / 1000);
    spread.push(...(await get(`/v2/chambers?per_page=100&page=${page}`)).data.map((c) => c.id));
  }
  return spread;
}

/** Rounds in which the targets of a workload take turns. */
const ROUNDS = 3;
const ROUND_SECONDS = Math.max(3, Math.round(DURATION / 2));

/** A backend's targets: its `serve` and its floor. */
interface Backend {
  label: 'sqlite' | 'postgres';
  serve: Partial<Record<Workload, Endpoint>>;
  floor: Partial<Record<Workload, Endpoint>>;
}
type Kind = 'serve' | 'floor';
/** A target's figure (mean req/s and worst p99 of its rounds) and each round's. */
interface Measured {
  figure: Figure;
  rounds: Figure[];
}
type Results = Record<Workload, Partial<Record<`${Backend['label']} ${Kind}`, Measured>>>;

/**
 * Each workload on every target that has it (serve and floor of each backend) in ROUNDS
 * rounds: in one order, then the reverse, so that a change in the machine's load falls on all
 * of them rather than on whichever ran later. The first round has a warm-up.
 */
async function measureAll(backends: Backend[]): Promise<Results> {
  const results = {} as Results;
  for (const w of Object.keys(WORKLOADS) as Workload[]) {
    const targets = backends.flatMap((b) => (['serve', 'floor'] as const).flatMap((kind) => (b[kind][w] ? [{ key: `${b.label} ${kind}` as const, ep: b[kind][w]! }] : [])));
    const rounds = new Map<string, Figure[]>(targets.map((t) => [t.key, []]));
    for (let r = 0; r < ROUNDS; r++) {
      for (const t of r % 2 === 0 ? targets : [...targets].reverse()) rounds.get(t.key)!.push(await t.ep.run(ROUND_SECONDS, r === 0));
    }
    results[w] = Object.fromEntries(targets.map((t) => [t.key, { figure: combine(rounds.get(t.key)!), rounds: rounds.get(t.key)! }]));
  }
  return results;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** Round by round, a's req/s over b's: the median, and each round's. */
function ratioOf(a: Measured, b: Measured): { median: number; rounds: number[] } {
  const rounds = a.rounds.map((f, i) => f.rps / b.rounds[i]!.rps);
  return { median: median(rounds), rounds };
}

/** Round by round, b's CPU a request over a's (what a's req/s over b's would be with a core each): the median. */
function cpuRatioOf(a: Measured, b: Measured): number | undefined {
  if (a.rounds.some((f) => f.cpuUs === undefined) || b.rounds.some((f) => f.cpuUs === undefined)) return undefined;
  return median(a.rounds.map((f, i) => b.rounds[i]!.cpuUs! / f.cpuUs!));
}

/**
 * The answers of `serve` and of its floor to the same URLs, byte for byte: the floor is a
 * floor only if it sends what serve sends. Page 51 after page 50 reads by the seek on both.
 */
async function sameBytes(serveBase: string, floorBase: string, headers: Record<string, string>, flagship: string): Promise<{ same: number; urls: string[]; differ: string[] }> {
  const urls = [
    '/v2/chambers?page=2',
    '/v2/chambers?filter[status]=active&sort=-name&page=50',
    '/v2/chambers?filter[status]=active&sort=-name&page=51',
    '/v2/chambers?filter[type]=hq&sort=created_at&page=7&per_page=100',
    `/v2/chambers/${flagship}/members?sort=name&page=7`,
    `/v2/chambers/${flagship}/members?filter[status]=pending&sort=-joined_at&page=30`,
    `/v2/chambers/${flagship}/members?filter[status]=pending&sort=-joined_at&page=31`,
    `/v2/chambers/${flagship}/events?page=2`,
    `/v2/chambers/${flagship}/events?filter[status]=upcoming&page=3`,
    `/v2/chambers/${flagship}/events?filter[date_from]=2026-01-01&filter[date_to]=2026-12-31&page=2`,
  ];
  const differ: string[] = [];
  for (const url of urls) {
    const [a, b] = await Promise.all([serveBase, floorBase].map(async (base) => Buffer.from(await (await fetch(`${base}${url}`, { headers })).arrayBuffer())));
    if (!a!.equals(b!)) differ.push(url);
  }
  return { same: urls.length - differ.length, urls, differ };
}

/** POST member through two instances at once, half the connections each; req/s summed. */
async function measureTwoInstances(a: string, b: string): Promise<Figure> {
  const headers = await bearer(a);
  const flagship = ((await (await fetch(`${a}/v2/chambers?per_page=1`, { headers })).json()) as { data: { id: string }[] }).data[0]!.id;
  const half = Math.max(1, Math.floor(CONNECTIONS / 2));
  const run = (url: string, tag: string, duration: number) =>
    autocannon({ url: `${url}/v2/chambers/${flagship}/members`, connections: half, duration, requests: postMember(flagship, headers, tag) });
  await Promise.all([run(a, 'wa', 1), run(b, 'wb', 1)]); // warm-up
  const name = 'postgres, two instances: v2 POST member';
  return withCpuSplit(name, ['postgres', 'pg-b'], async () => {
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

/** The lists' target against their floor on SQLite (the speed issue's), for each list and POST member. */
const FLOOR_TARGET = 0.85;
/** PostgreSQL's lists against SQLite's in the same run, and its gets. */
const PG_LIST_TARGET = 0.6;
const PG_GET_TARGET = 0.5;

async function main() {
  process.stderr.write(
    `starting a bare Fastify route and chamberctl serve with the large seed (100k chambers, 1M members)${WITH_POSTGRES ? ' on SQLite and on PostgreSQL' : ''}, then the same-work floors...\n`,
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
  const sqliteFile = join(dir, 'bench.db');
  if (process.env.BENCH_SQLITE_COPY) copyFileSync(process.env.BENCH_SQLITE_COPY, sqliteFile);
  const [port, base, pgBase] = await Promise.all([barePort, serve(sqliteFile, 'sqlite'), pgDb ? serve(pgDb.url, 'postgres') : undefined]);
  const pgBase2 = pgDb ? await serve(pgDb.url, 'pg-b', ['--seed', 'none']) : undefined;
  if (pgDb) await pgDb.settle();
  // the floors open the databases serve has seeded
  const floorBase = await floor(sqliteFile, 'sqlite floor');
  const pgFloorBase = pgDb ? await floor(pgDb.url, 'postgres floor') : undefined;
  process.stderr.write(`ready after ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  // the bare page: page 2 of the chambers list, 20 chambers, as serve sends it
  const pageBody = await (await fetch(`${base}/v2/chambers?page=2`, { headers: await bearer(base) })).json();
  await fetch(`http://127.0.0.1:${port}/bare-page`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(pageBody) });

  try {
    const backends: Backend[] = [];
    const bytes: { label: string; same: number; urls: string[]; differ: string[] }[] = [];
    for (const [label, serveBase, fBase] of [['sqlite', base, floorBase], ...(pgBase ? [['postgres', pgBase, pgFloorBase!]] : [])] as [Backend['label'], string, string][]) {
      const headers = await bearer(serveBase);
      const { flagship, chamberTotal, get } = await flagshipOf(label, serveBase, headers);
      bytes.push({ label, ...(await sameBytes(serveBase, fBase, headers, flagship)) });
      // every page once on each: all start the measurements with the same page boundaries learnt
      for (const b of [serveBase, fBase]) await readEveryListPage(b, headers, flagship);
      backends.push({
        label,
        serve: await endpoints(label, serveBase, headers, flagship, await spreadIds(get, chamberTotal)),
        floor: await endpoints(`${label} floor`, fBase, headers, flagship),
      });
    }

    const figures: Figure[] = [];
    figures.push(await measure('bare Fastify route', `http://127.0.0.1:${port}/bare`));
    const barePage = await measure('bare Fastify route, a list page made in advance', `http://127.0.0.1:${port}/bare-page`);
    const results = await measureAll(backends);
    for (const b of backends) {
      for (const kind of ['serve', 'floor'] as const) {
        for (const w of Object.keys(WORKLOADS) as Workload[]) {
          const m = results[w][`${b.label} ${kind}`];
          if (m) figures.push(m.figure);
        }
      }
    }
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
      `\nserver benchmark: ${CONNECTIONS} connections, node ${process.version}; bare route ${DURATION} s a run; each workload ${ROUNDS} rounds of ${ROUND_SECONDS} s per target, ` +
        `the targets taking turns (req/s the mean of the rounds, p99 the worst); serve logging a line per request`,
    );
    console.table(rows);
    console.log(`bare route: ${Math.round(figures[0]!.rps)} then ${Math.round(bareAgain.rps)} req/s; ratios use the mean`);
    const sqliteServe = (w: Workload) => results[w]['sqlite serve']!.figure;
    // Not a target: how far the lists are from sending the same bytes with no work at all.
    console.log(
      `bare route sending a list page made in advance (${JSON.stringify(pageBody).length} bytes): ${Math.round(barePage.rps)} req/s, p99 ${barePage.p99} ms; ` +
        (['chambers', 'members'] as const).map((w) => `${sqliteServe(w).name.replace(/ \(.*/, '')} ${(sqliteServe(w).rps / barePage.rps).toFixed(2)}x of it`).join(', '),
    );

    // Against the same work's floor: what our layers cost on top of the work.
    const floorRatio = (label: Backend['label'], w: Workload) => {
      const s = results[w][`${label} serve`];
      const f = results[w][`${label} floor`];
      return s && f ? { serve: s, floor: f, ...ratioOf(s, f) } : undefined;
    };
    console.log(
      '\nserve against its same-work floor (bench/same-work-floor.ts), same run: req/s, the median of the rounds and their spread; and the CPU time ' +
        "of each process a request (PostgreSQL's not counted), with the floor's over serve's, the median of the rounds:",
    );
    console.table(
      backends.flatMap((b) =>
        [...LISTS, 'post' as const].flatMap((w) => {
          const r = floorRatio(b.label, w);
          return r
            ? [{
                benchmark: `${b.label}: ${WORKLOADS[w]}`,
                'serve req/s': Math.round(r.serve.figure.rps),
                'floor req/s': Math.round(r.floor.figure.rps),
                'x floor': +r.median.toFixed(2),
                rounds: r.rounds.map((x) => x.toFixed(2)).join(' '),
                'p99 ms serve/floor': `${r.serve.figure.p99}/${r.floor.figure.p99}`,
                'CPU µs/req serve/floor': `${r.serve.figure.cpuUs?.toFixed(0)}/${r.floor.figure.cpuUs?.toFixed(0)}`,
                ...(r.serve.figure.pgUs !== undefined && { 'PostgreSQL µs/req serve/floor': `${r.serve.figure.pgUs.toFixed(0)}/${r.floor.figure.pgUs?.toFixed(0)}` }),
                'x floor by CPU': +(cpuRatioOf(r.serve, r.floor) ?? NaN).toFixed(2),
              }]
            : [];
        }),
      ),
    );
    for (const b of bytes) {
      console.log(`${b.label}: the floor's answers equal serve's byte for byte on ${b.same} of ${b.urls.length} URLs${b.differ.length ? `; they differ on ${b.differ.join(', ')}` : ''}`);
    }
    for (const b of backends) console.log(`${b.label} serve's log: ${(statSync(logFile(b.label)).size / 1e6).toFixed(0)} MB (a line per request, as by default)`);

    console.log(`\nwhere the ${CORES} cores went during the POST member runs, all rounds (CPU time as a share of cores x wall time):`);
    for (const [name, split] of splitOf) console.log(`  ${name}: ${formatSplit(split)}`);
    const checks: (readonly [string, boolean])[] = [
      ...(['chambers', 'members'] as const).map((w) => [`${sqliteServe(w).name} >= 0.25x bare`, sqliteServe(w).rps / bare >= 0.25] as const),
      ...LISTS.map((w) => [`${sqliteServe(w).name} p99 < 10 ms`, sqliteServe(w).p99 < 10] as const),
      ...[...LISTS, 'post' as const].map((w) => [`${sqliteServe(w).name} >= ${FLOOR_TARGET}x its floor`, floorRatio('sqlite', w)!.median >= FLOOR_TARGET] as const),
      [`sqlite: POST member >= 5000 req/s`, sqliteServe('post').rps >= 5000] as const,
      ...bytes.map((b) => [`${b.label}: the floor answers the same bytes as serve`, b.differ.length === 0] as const),
      ['no errors and no non-2xx answers', figures.every((f) => f.errors === 0 && f.non2xx === 0)] as const,
    ];
    if (pgBase) {
      const workloads = [...LISTS, 'get', 'get1000', 'post'] as const;
      const pgRatio = (w: Workload) => ratioOf(results[w]['postgres serve']!, results[w]['sqlite serve']!);
      console.log(
        '\npostgres against sqlite, same run (the median of the rounds, and their spread), and the CPU time a request of serve on each ' +
          "and of PostgreSQL's processes (all of them: another user of the server counts too), the means of the rounds:",
      );
      console.table(
        workloads.map((w) => {
          const [lite, pg] = [results[w]['sqlite serve']!.figure, results[w]['postgres serve']!.figure];
          return {
            benchmark: WORKLOADS[w],
            'x sqlite': +pgRatio(w).median.toFixed(2),
            rounds: pgRatio(w).rounds.map((r) => r.toFixed(2)).join(' '),
            'p99 ms': pg.p99,
            'CPU µs/req: sqlite serve': Math.round(lite.cpuUs ?? NaN),
            'postgres serve + PostgreSQL': `${Math.round(pg.cpuUs ?? NaN)} + ${Math.round(pg.pgUs ?? NaN)}`,
          };
        }),
      );
      for (const w of LISTS) checks.push([`postgres: ${WORKLOADS[w]} >= ${PG_LIST_TARGET}x sqlite`, pgRatio(w).median >= PG_LIST_TARGET]);
      for (const w of ['get', 'get1000'] as const) checks.push([`postgres: ${WORKLOADS[w]} >= ${PG_GET_TARGET}x sqlite`, pgRatio(w).median >= PG_GET_TARGET]);
      for (const w of workloads) checks.push([`postgres: ${WORKLOADS[w]} p99 < 20 ms`, results[w]['postgres serve']!.figure.p99 < 20]);
      if (two) {
        const one = results.post['postgres serve']!.figure;
        const ratio = two.rps / one.rps;
        console.log(`two instances: ${Math.round(two.rps)} req/s POST member, ${ratio.toFixed(2)}x one instance`);
        // What bounds that ratio on this machine: the share of the cores one instance left
        // unused, and the CPU each request costs (load generator, serve, PostgreSQL) in each run.
        const oneSplit = splitOf.get(one.name);
        const both = splitOf.get(two.name);
        if (oneSplit && both) {
          const perRequest = (s: Split, f: Figure) => Math.round((busySeconds(s) * 1e6) / (f.rps * (s.available / CORES)));
          console.log(
            `  at most ${throughputCeiling(oneSplit).toFixed(2)}x on this machine: one instance kept ${Math.round((100 * busySeconds(oneSplit)) / oneSplit.available)}% of the ${CORES} cores busy, ` +
              `at ${perRequest(oneSplit, one)} µs of CPU a request (load generator, serve, PostgreSQL); two instances spent ${perRequest(both, two)} µs a request`,
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
