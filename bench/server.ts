// npm run bench:server — throughput and latency of the embedded server, each figure also
// as a ratio to a bare Fastify route measured in the same run on the same machine (the
// machines are shared and noisy, so only ratios compare across runs).
//
// Both servers run in child processes; autocannon drives them from this one.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Request } from 'autocannon';

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

/** Spawns a node process and resolves with the first stdout match of `pattern`. */
function spawnAndWait(args: string[], pattern: RegExp, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
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

async function measure(name: string, url: string, opts: { headers?: Record<string, string>; requests?: Request[] } = {}): Promise<Figure> {
  const base = { url, connections: CONNECTIONS, headers: opts.headers, requests: opts.requests };
  await autocannon({ ...base, duration: 1 }); // warm-up
  const r = await autocannon({ ...base, duration: DURATION });
  const fig = { name, rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
  process.stderr.write(`  measured ${name}: ${fig.rps.toFixed(0)} req/s, p99 ${fig.p99} ms\n`);
  return fig;
}

async function main() {
  process.stderr.write('starting a bare Fastify route and chamberctl serve with the large seed (100k chambers, 1M members)...\n');
  const t0 = Date.now();
  const barePort = spawnAndWait(
    [
      '--input-type=module',
      '-e',
      `import Fastify from 'fastify';
       const app = Fastify({ logger: false });
       app.get('/bare', async () => ({ hello: 'world' }));
       await app.listen({ port: 0, host: '127.0.0.1' });
       console.log('port=' + app.server.address().port);`,
    ],
    /port=(\d+)/,
  );
  const serveUrl = spawnAndWait(
    [
      'bin/chamberctl.js', 'serve', '--port', '0', '--db', join(dir, 'bench.db'), '--seed-size', 'large',
      '--client-id', CLIENT_ID, '--client-secret', CLIENT_SECRET, '--quiet', '--json',
    ],
    /"base_url":"([^"]+)"/,
    { CHAMBERCTL_CONFIG_DIR: join(dir, 'config') },
  );
  const [port, base] = await Promise.all([barePort, serveUrl]);
  process.stderr.write(`ready after ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);

  const tokenRes = await fetch(`${base}/v2/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET }),
  });
  const token = ((await tokenRes.json()) as { access_token: string }).access_token;
  const headers = { authorization: `Bearer ${token}` };
  const get = async (path: string) => (await (await fetch(`${base}${path}`, { headers })).json()) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
  // The flagship chamber (first in the default order) has 100k members.
  const flagship = (await get('/v2/chambers?per_page=1')).data[0].id as string;
  const flagshipMembers = (await get(`/v2/chambers/${flagship}/members?per_page=1`)).meta.total as number;
  const chamberTotal = (await get('/v2/chambers?per_page=1')).meta.total as number;
  process.stderr.write(`chambers: ${chamberTotal}, members of ${flagship}: ${flagshipMembers}\n`);

  const figures: Figure[] = [];
  figures.push(await measure('bare Fastify route', `http://127.0.0.1:${port}/bare`));
  figures.push(await measure('v2 chambers list (filter, sort, page 50)', `${base}/v2/chambers?filter[status]=active&sort=-name&page=50`, { headers }));
  figures.push(await measure('v2 members list (100k-member chamber)', `${base}/v2/chambers/${flagship}/members?sort=name&page=50`, { headers }));
  figures.push(await measure('v2 get chamber by id', `${base}/v2/chambers/${flagship}`, { headers }));
  let n = 0;
  const stamp = Date.now().toString(36);
  figures.push(
    await measure('v2 POST member', `${base}/v2/chambers/${flagship}/members`, {
      requests: [
        {
          method: 'POST',
          path: `/v2/chambers/${flagship}/members`,
          headers: { ...headers, 'content-type': 'application/json' },
          setupRequest: (req) => ({
            ...req,
            body: JSON.stringify({ name: `Bench Member ${n}`, email: `bench.${stamp}.${n++}@example.org`, membership_type: 'standard' }),
          }),
        },
      ],
    }),
  );

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
  console.log(`\nserver benchmark: ${CONNECTIONS} connections, ${DURATION} s each, node ${process.version}`);
  console.table(rows);
  const lists = figures.slice(1, 3);
  const post = figures[4]!;
  console.log(`bare route: ${Math.round(figures[0]!.rps)} then ${Math.round(bareAgain.rps)} req/s; ratios use the mean`);
  const checks = [
    ...lists.map((f) => [`${f.name} >= 0.25x bare`, f.rps / bare >= 0.25] as const),
    ...lists.map((f) => [`${f.name} p99 < 10 ms`, f.p99 < 10] as const),
    [`POST member >= 5000 req/s`, post.rps >= 5000] as const,
    ['no errors and no non-2xx answers', figures.every((f) => f.errors === 0 && f.non2xx === 0)] as const,
  ];
  for (const [what, ok] of checks) console.log(`${ok ? 'PASS' : 'MISS'}  ${what}`);
  process.exit(0);
}

main().catch((err) => {
  console.error(`bench:server failed: ${(err as Error).message}`);
  process.exit(1);
});
