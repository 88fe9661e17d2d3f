// npm run bench:layers — what each layer of `serve` costs a request: `serve` built as it is and
// with one layer left out (scripts/build-bench-layers.mjs: the token check, the zod check of
// the query, the deadline, the request gate, the store's proxy) or switched by its own option
// (the line per request, the logger altogether, the metrics hooks), all on one SQLite
// database (the large seed), taking turns in rounds under the same load. Per workload and
// layer it prints the µs a request the layer costs, two ways, each the median of the rounds:
// from throughput, 1e6/rps with the layer − 1e6/rps without (wall time a request when `serve`
// is what bounds the rate), and from `serve`'s own CPU time per request (/proc), with − without.
//
//   npm run bench:layers [-- --profile] [-- --workloads chambers,members,events,post|none]
//
// --profile: also a CPU profile (node --cpu-prof) of the build with every layer, under the
// chambers list, its self time by source file and by layer (bench/lib/profile-by-source.ts).
// --versus FILE: also another build of bench/layers/serve.ts (another checkout's
// dist/bench/layers/all.js), in the same rounds: what this checkout's build saves against it,
// µs a request, to measure a change; with --only-versus, those two builds alone.
// BENCH_SQLITE_COPY=FILE: a copy of a database `serve --seed-size large` left, instead of
// seeding one; BENCH_ROUNDS (default 4), BENCH_ROUND_SECONDS (3), BENCH_CONNECTIONS (10).
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Request } from 'autocannon';
import { byLayer, selfTimeBySource } from './lib/profile-by-source.js';
import { listPaths, readEveryListPage } from './lib/list-queries.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PROFILE_SECONDS = 10;
const CLIENT = ['--client-id', 'bench', '--client-secret', 'BenchSecret0123456789'];
const argv = process.argv.slice(2);
const PROFILE = argv.includes('--profile');
const WORKLOADS = (argv.includes('--workloads') ? argv[argv.indexOf('--workloads') + 1]! : 'chambers,members,post').split(',').filter((w) => w && w !== 'none');

const children: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'chamberctl-layers-'));
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** A server process: resolves with its base URL once it prints it; its stderr (the log lines) to a file. */
function start(args: string[], name: string, nodeArgs: string[] = []): Promise<{ base: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd: ROOT,
    env: { ...process.env, CHAMBERCTL_CONFIG_DIR: join(dir, `config-${name}`) },
    stdio: ['ignore', 'pipe', openSync(join(dir, `${name.replace(/\W+/g, '-')}.log`), 'a')],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      // serve's banner, or the floor's port
      const m = /"base_url":"([^"]+)"|port=(\d+)/.exec(out);
      if (m) resolve({ base: m[1] ?? `http://127.0.0.1:${m[2]}`, child });
    });
    child.on('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
}

/** utime + stime of a process, in seconds (Linux; 0 elsewhere). */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

/** A variant of serve: how it is started, and whether it has the layer (`on`) or not. */
interface Variant {
  name: string;
  /** What the variant says of the layer: left out of the build, switched off or on by its option. */
  layer?: string;
  /** The variant it differs from by that layer alone (default: every layer, the bench build). */
  versus?: string;
  /** The variant has what `versus` has not (--metrics, another build): its cost is variant − versus. */
  adds?: boolean;
  args: string[];
}

const LAYER_NAMES: Record<string, string> = {
  'token-check': 'token check (hash, the remembered token, client use)',
  'query-check': 'query check (zod)',
  deadline: 'deadline (a timer and a handler wrapper per request)',
  'request-gate': 'request gate (X-Request-Id echo, Host, stopping)',
  'store-proxy': "store's proxy (unavailable.ts)",
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main() {
  const db = join(dir, 'bench.db');
  if (process.env.BENCH_SQLITE_COPY) copyFileSync(process.env.BENCH_SQLITE_COPY, db);
  else process.stderr.write('seeding the large data (100k chambers, 1M members) through serve...\n');
  const cli = await start(['bin/chamberctl.js', 'serve', '--port', '0', '--db', db, '--seed-size', 'large', ...CLIENT, '--json'], 'serve (the CLI)');
  const builds = readdirSync(join(ROOT, 'dist/bench/layers'))
    .filter((f) => f.endsWith('.js') && f !== 'all.js' && f !== 'floor.js')
    .map((f) => f.slice(0, -3));
  const serveArgs = (build: string, ...extra: string[]) => [`dist/bench/layers/${build}.js`, '--db', db, ...CLIENT, ...extra];
  const variants: Variant[] = [
    { name: 'serve (the CLI)', args: [] },
    { name: 'all layers (bench build)', args: serveArgs('all') },
    ...builds.map((b) => ({ name: `without ${b}`, layer: b, args: serveArgs(b) })),
    { name: 'without the request log line (--quiet)', layer: 'request log line (pino, a line per request)', args: serveArgs('all', '--quiet') },
    { name: 'without any logger', layer: 'the logger itself beyond the line (pino child per request)', versus: 'without the request log line (--quiet)', args: serveArgs('all', '--no-logger') },
    { name: 'with --metrics', layer: 'metrics hooks (when on)', adds: true, args: serveArgs('all', '--metrics') },
  ];
  const other = argv.includes('--versus') ? argv[argv.indexOf('--versus') + 1] : undefined;
  if (other) variants.push({ name: `the build ${other}`, layer: 'what this checkout saves against that build', adds: true, args: [other, ...serveArgs('all').slice(1)] });
  if (other && argv.includes('--only-versus')) variants.splice(0, variants.length - 1, variants[1]!);
  const bases = new Map<string, { base: string; pid: number }>([['serve (the CLI)', { base: cli.base, pid: cli.child.pid! }]]);
  for (const v of variants.filter((v) => !bases.has(v.name))) {
    const s = await start(v.args, v.name);
    bases.set(v.name, { base: s.base, pid: s.child.pid! });
  }

  const token = await fetch(`${cli.base}/v2/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'bench', client_secret: 'BenchSecret0123456789' }),
  });
  const headers = { authorization: `Bearer ${((await token.json()) as { access_token: string }).access_token}` };
  const flagship = ((await (await fetch(`${cli.base}/v2/chambers?per_page=1`, { headers })).json()) as { data: { id: string }[] }).data[0]!.id;

  // Every build answers the same bytes as the CLI's serve: leaving a layer out changes no page.
  const urls = ['/v2/chambers?filter[status]=active&sort=-name&page=50', '/v2/chambers?filter[status]=active&sort=-name&page=51', `/v2/chambers/${flagship}/members?sort=name&page=7`, `/v2/chambers/${flagship}/events?filter[date_from]=2026-01-01&page=2`];
  const expected = await Promise.all(urls.map(async (u) => (await fetch(`${cli.base}${u}`, { headers })).text()));
  for (const v of variants) {
    for (const [i, u] of urls.entries()) {
      const got = await (await fetch(`${bases.get(v.name)!.base}${u}`, { headers })).text();
      if (got !== expected[i]) throw new Error(`${v.name} answers ${u} differently from the CLI's serve`);
    }
  }
  process.stderr.write(`${variants.length} servers answer the same bytes on ${urls.length} URLs\n`);

  // every list page once on each server: all with the same page boundaries learnt
  for (const v of variants) await readEveryListPage(bases.get(v.name)!.base, headers, flagship);

  const requestsOf = (workload: string, server: string): Request[] => {
    const paths = listPaths(flagship);
    let n = 0;
    const stamp = `${server.replace(/\W+/g, '')}${Date.now().toString(36)}`; // new e-mail addresses for each server
    switch (workload) {
      case 'chambers':
      case 'members':
      case 'events':
        return [{ setupRequest: (r) => ({ ...r, path: paths[workload]() }) }];
      case 'post':
        return [{
          method: 'POST',
          path: `/v2/chambers/${flagship}/members`,
          headers: { ...headers, 'content-type': 'application/json' },
          setupRequest: (r) => ({ ...r, body: JSON.stringify({ name: `Layer Member ${n}`, email: `layer.${stamp}.${n++}@example.org`, membership_type: 'standard' }) }),
        }];
      default:
        throw new Error(`no workload ${workload}: chambers, members, events or post`);
    }
  };

  for (const workload of WORKLOADS) {
    // each variant its own generator with the same seed: the same sequence of requests
    const requests = new Map(variants.map((v) => [v.name, requestsOf(workload, v.name)]));
    const rounds = new Map<string, { rps: number; cpuUs: number }[]>(variants.map((v) => [v.name, []]));
    for (let r = 0; r < ROUNDS; r++) {
      for (const v of r % 2 === 0 ? variants : [...variants].reverse()) {
        const { base, pid } = bases.get(v.name)!;
        const opts = { url: base, connections: CONNECTIONS, headers, requests: requests.get(v.name)! };
        if (r === 0) await autocannon({ ...opts, duration: 1 });
        const cpu0 = cpuSeconds(pid);
        const res = await autocannon({ ...opts, duration: ROUND_SECONDS });
        if (res.errors || res.timeouts || res.non2xx) throw new Error(`${v.name}: ${res.errors} errors, ${res.timeouts} timeouts, ${res.non2xx} non-2xx`);
        rounds.get(v.name)!.push({ rps: res.requests.average, cpuUs: ((cpuSeconds(pid) - cpu0) * 1e6) / res.requests.total });
        process.stderr.write(`  ${workload}, round ${r + 1}: ${v.name}: ${Math.round(res.requests.average)} req/s\n`);
      }
    }
    const ALL = 'all layers (bench build)';
    console.log(`\n${workload}: ${ROUNDS} rounds of ${ROUND_SECONDS} s per server, taking turns; ${CONNECTIONS} connections; node ${process.version}`);
    console.table(
      variants.map((v) => {
        const rs = rounds.get(v.name)!;
        const versus = rounds.get(v.versus ?? ALL)!;
        // a layer's cost: with it, less without it
        const sign = v.adds ? -1 : 1;
        const cost = (f: (x: { rps: number; cpuUs: number }) => number) => median(rs.map((x, i) => sign * (f(versus[i]!) - f(x))));
        return {
          server: v.name,
          'req/s': Math.round(rs.reduce((a, x) => a + x.rps, 0) / rs.length),
          'serve CPU µs/req': Math.round(median(rs.map((x) => x.cpuUs))),
          ...(v.layer
            ? {
                layer: LAYER_NAMES[v.layer] ?? v.layer,
                'µs/req from req/s': +cost((x) => 1e6 / x.rps).toFixed(1),
                'µs/req from CPU': +cost((x) => x.cpuUs).toFixed(1),
              }
            : {}),
        };
      }),
    );
  }

  if (PROFILE) {
    // serve (every layer) and the same-work floor of bench:server, one after the other under
    // the same chambers lists, each with node --cpu-prof
    const profiles: { name: string; requests: number; rps: number; times: ReturnType<typeof selfTimeBySource> }[] = [];
    for (const [name, args] of [
      ['serve', serveArgs('all')],
      ['floor', ['dist/bench/layers/floor.js', '--db', db]],
    ] as const) {
      const profileDir = join(dir, `profile-${name}`);
      const s = await start([...args], `profiled ${name}`, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]);
      const walked = await readEveryListPage(s.base, headers, flagship);
      const opts = { url: s.base, connections: CONNECTIONS, headers, requests: requestsOf('chambers', `profiled ${name}`) };
      const warm = await autocannon({ ...opts, duration: 2 });
      const res = await autocannon({ ...opts, duration: PROFILE_SECONDS });
      const exited = new Promise((resolve) => s.child.once('exit', resolve));
      s.child.kill(name === 'serve' ? 'SIGTERM' : 'SIGINT');
      await exited;
      const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'))!;
      // the profile spans the start too (a few hundred ms of its busy time), the reading of every
      // list page and the warm-up
      profiles.push({ name, requests: walked + warm.requests.total + res.requests.total, rps: res.requests.average, times: selfTimeBySource(join(profileDir, file)) });
    }
    const busyOf = (p: (typeof profiles)[number]) => p.times.filter((t) => t.source !== '(idle)').reduce((a, t) => a + t.ms, 0);
    console.log(`\nCPU profiles under the chambers list (${PROFILE_SECONDS} s after 2 s of warm-up, both in each profile):`);
    for (const p of profiles) console.log(`  ${p.name}: ${Math.round(p.rps)} req/s, ${(busyOf(p) / 1000).toFixed(1)} s busy, ${((busyOf(p) * 1000) / p.requests).toFixed(0)} µs a request`);
    const perRequest = (p: (typeof profiles)[number], layer: string) => ((byLayer(p.times).find((l) => l.layer === layer)?.ms ?? 0) * 1000) / p.requests;
    const [serveProfile, floorProfile] = profiles as [(typeof profiles)[number], (typeof profiles)[number]];
    console.log('self time by layer, µs a request:');
    console.table(
      byLayer(serveProfile.times)
        .filter((l) => l.layer !== '(idle)')
        .map((l) => ({
          layer: l.layer,
          serve: +perRequest(serveProfile, l.layer).toFixed(1),
          floor: +perRequest(floorProfile, l.layer).toFixed(1),
          'serve - floor': +(perRequest(serveProfile, l.layer) - perRequest(floorProfile, l.layer)).toFixed(1),
          'share of serve': `${((100 * l.ms) / busyOf(serveProfile)).toFixed(1)}%`,
        })),
    );
    for (const p of profiles) {
      console.log(`the source files with the most self time, ${p.name}:`);
      console.table(p.times.filter((t) => t.source !== '(idle)').slice(0, 25).map((t) => ({ source: t.source, layer: t.layer, 'µs/req': +((t.ms * 1000) / p.requests).toFixed(1) })));
    }
  }
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  process.exit(0);
}

main().catch((err) => {
  console.error(`bench:layers failed: ${(err as Error).message}`);
  process.exit(1);
});
