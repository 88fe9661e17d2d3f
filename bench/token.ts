// npm run bench:token — a good client's token latency while 150 requests with wrong
// secrets are in flight at all times (decisions.md: the token endpoint bounds its cost per
// caller). The flood comes from another loopback address (127.0.0.2), as an attacker's
// would; the good client from 127.0.0.1. Baseline: the same client's latency with no
// flood, measured in the same run. Target: p99 under the flood < 100 ms.
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FLOOD = Number(process.env.BENCH_FLOOD ?? 150);
const DURATION_MS = Number(process.env.BENCH_DURATION ?? 8) * 1000;
const CLIENT_ID = 'bench';
const CLIENT_SECRET = 'BenchTokenSecret0123456789';

const dir = mkdtempSync(join(tmpdir(), 'chamberctl-bench-token-'));
const child = spawn(
  process.execPath,
  ['bin/chamberctl.js', 'serve', '--port', '0', '--db', ':memory:', '--seed', 'none', '--client-id', CLIENT_ID, '--client-secret', CLIENT_SECRET, '--quiet', '--json'],
  { cwd: ROOT, env: { ...process.env, CHAMBERCTL_CONFIG_DIR: join(dir, 'config') }, stdio: ['ignore', 'pipe', 'inherit'] },
);
process.on('exit', () => {
  child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const base = await new Promise<string>((resolve, reject) => {
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    const m = /"base_url":"([^"]+)"/.exec(out);
    if (m) resolve(m[1]!);
  });
  child.on('exit', (code) => reject(new Error(`serve exited with ${code}`)));
});

async function tokenRequest(secret: string): Promise<number> {
  const res = await fetch(`${base}/v2/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: secret }),
  });
  await res.arrayBuffer();
  return res.status;
}

const floodAgent = new Agent({ keepAlive: true, maxSockets: FLOOD });

/** A wrong-secret token request from 127.0.0.2. */
function floodRequest(secret: string): Promise<number> {
  const url = new URL(`${base}/v2/auth/token`);
  const body = JSON.stringify({ grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: secret });
  return new Promise((resolve) => {
    const r = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent: floodAgent, localAddress: '127.0.0.2', headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    r.on('error', () => resolve(0));
    r.end(body);
  });
}

/** Sequential good token requests for `ms`: their latencies in ms. */
async function goodClient(ms: number): Promise<number[]> {
  const latencies: number[] = [];
  const until = performance.now() + ms;
  while (performance.now() < until) {
    const t = performance.now();
    const status = await tokenRequest(CLIENT_SECRET);
    if (status !== 200) throw new Error(`the good client got ${status}`);
    latencies.push(performance.now() - t);
  }
  return latencies;
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const fmt = (xs: number[]) => `n=${xs.length}, p50 ${pct(xs, 0.5).toFixed(1)} ms, p99 ${pct(xs, 0.99).toFixed(1)} ms`;

await tokenRequest(CLIENT_SECRET); // the first check is an scrypt; then it is remembered
const quiet = await goodClient(DURATION_MS / 2);

const statuses = new Map<number, number>();
let flooding = true;
const flood = Array.from({ length: FLOOD }, async (_, i) => {
  for (let n = 0; flooding; n++) {
    const status = await floodRequest(`wrong-${i}-${n}`);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
});
await new Promise((r) => setTimeout(r, 500)); // let the flood build up
const under = await goodClient(DURATION_MS);
flooding = false;
await Promise.all(flood);

console.log(`\ntoken benchmark: ${FLOOD} wrong-secret requests in flight, node ${process.version}`);
console.log(`  good client, no flood:    ${fmt(quiet)}`);
console.log(`  good client, under flood: ${fmt(under)}  (p99 ${(pct(under, 0.99) / pct(quiet, 0.99)).toFixed(2)}x no flood)`);
console.log(`  flood answers: ${[...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s || 'network error'}: ${n}`).join(', ')}`);
console.log(`${pct(under, 0.99) < 100 ? 'PASS' : 'MISS'}  good client p99 under the flood < 100 ms`);
process.exit(0);
