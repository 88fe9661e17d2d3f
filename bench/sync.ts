// npm run bench:sync — `sync pull` of the large demo directory (100k chambers, 1M members,
// events) from a `serve` into a fresh database, against what a hand-written script would
// do: a plain loop of paged GETs over the same lists, at the same concurrency, that only
// parses each page. Both run as child processes of this one, one after the other against the
// same server, in the same run; the figures that compare across runs are the ratios.
//
//   npm run bench:sync [-- --size standard] [-- --concurrency 8]
//
// Prints rows/s of each, their ratio (target >= 0.8), the pull's peak RSS (target < 200 MB),
// and where the cores went during each run (the worker, serve, idle: what bounds the ratio).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { DirectoryClient } from '../src/client/directory-client.js';
import { HttpClient } from '../src/client/http.js';
import { TokenProvider } from '../src/client/tokens.js';
import { tuneGcForImport } from '../src/import/gc-tuning.js';
import { seedDemo, type SeedSizeName } from '../src/storage/seed/index.js';
import { serveCopyInWorker } from '../src/storage/sqlite/copy-worker.js';
import { ThreadedCopy } from '../src/storage/sqlite/threaded-copy.js';
import { Storage } from '../src/storage/sqlite/storage.js';
import { newPullStats, pull } from '../src/sync/pull.js';
import { cpuSplit, formatSplit, throughputCeiling } from './lib/cpu-split.js';
import { peakRssMiB } from './lib/peak-rss.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CORES = availableParallelism();
const CLIENT = { clientId: 'bench', clientSecret: 'BenchSecret0123456789' };
const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]! : dflt;
};

interface WorkerResult {
  rows: number;
  ms: number;
  maxRssMiB: number;
  /** CPU seconds the worker process used (all its threads). */
  cpuSeconds: number;
}

/** CPU seconds this process has used so far. */
const ownCpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

// ---------------------------------------------------------------- workers (child processes)

async function pullWorker(url: string, db: string, concurrency: number): Promise<WorkerResult> {
  const http = new HttpClient();
  const tokens = new TokenProvider({ http, baseUrl: url, credentials: CLIENT, cache: { load: () => undefined, save: () => undefined }, now: () => new Date() });
  // as `chamberctl sync pull` opens it: written on a worker thread (this file started again)
  const copy = await ThreadedCopy.open(db, 32, { script: fileURLToPath(import.meta.url), argv: ['--worker', 'copy'] });
  const stats = newPullStats();
  tuneGcForImport(); // as `chamberctl sync pull` does
  const started = performance.now();
  await pull({
    api: new DirectoryClient(http, tokens, url),
    copy,
    source: { profile: 'bench', base_url: url },
    version: 'v2',
    concurrency,
    now: () => new Date(),
    warn: (line) => process.stderr.write(`${line}\n`),
    stats,
  });
  const ms = performance.now() - started;
  await copy.close();
  await http.close();
  return { rows: stats.rows, ms, maxRssMiB: peakRssMiB(), cpuSeconds: ownCpuSeconds() };
}

/** What a script would do: every page of every list, parsed, nothing more. */
async function loopWorker(url: string, concurrency: number): Promise<WorkerResult> {
  const pool = new Pool(url, { connections: concurrency + 1 });
  const res = await pool.request({
    method: 'POST',
    path: '/v2/auth/token',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret }),
  });
  const { access_token: token } = (await res.body.json()) as { access_token: string };
  let rows = 0;
  const all = async (path: string, each?: (item: { id: string }) => void) => {
    for (let page = 1; ; page++) {
      const r = await pool.request({ method: 'GET', path: `${path}?page=${page}&per_page=100`, headers: { authorization: `Bearer ${token}` } });
      const body = (await r.body.json()) as { data: { id: string }[]; meta: { total: number; per_page: number } };
      rows += body.data.length;
      if (each) body.data.forEach(each);
      if (body.data.length === 0 || page * body.meta.per_page >= body.meta.total) return;
    }
  };
  const started = performance.now();
  const ids: string[] = [];
  await all('/v2/chambers', (c) => ids.push(c.id));
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < ids.length) {
        const id = encodeURIComponent(ids[next++]!);
        await all(`/v2/chambers/${id}/members`);
        await all(`/v2/chambers/${id}/events`);
      }
    }),
  );
  const ms = performance.now() - started;
  await pool.close();
  return { rows, ms, maxRssMiB: peakRssMiB(), cpuSeconds: ownCpuSeconds() };
}

// ---------------------------------------------------------------- the bench

const children: ChildProcess[] = [];
function runChild(args: string[], env: NodeJS.ProcessEnv = {}): { child: ChildProcess; stdout: Promise<string> } {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const stdout = new Promise<string>((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')} exited with ${code}`)))));
  return { child, stdout };
}

async function main(): Promise<void> {
  const size = arg('--size', 'large') as SeedSizeName;
  const concurrency = Number(arg('--concurrency', '8'));
  const dir = mkdtempSync(join(tmpdir(), 'chamberctl-bench-sync-'));
  process.on('exit', () => {
    for (const c of children) c.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  const remoteDb = join(dir, 'remote.db');
  process.stderr.write(`seeding the ${size} demo directory...\n`);
  const seeded = new Storage(remoteDb);
  const counts = seedDemo(seeded, { size, now: new Date('2025-06-01T12:00:00.000Z') });
  seeded.close();

  const server = runChild(
    ['bin/chamberctl.js', 'serve', '--port', '0', '--db', remoteDb, '--seed', 'none', '--client-id', CLIENT.clientId, '--client-secret', CLIENT.clientSecret, '--quiet', '--json'],
    { CHAMBERCTL_CONFIG_DIR: join(dir, 'config') },
  );
  const url = await new Promise<string>((resolve) => {
    let out = '';
    server.child.stdout!.on('data', (d: string) => {
      out += d;
      const m = /"base_url":"([^"]+)"/.exec(out);
      if (m) resolve(m[1]!);
    });
  });

  const self = fileURLToPath(import.meta.url);
  const splits: string[] = [];
  const worker = async (mode: string, extra: string[] = []): Promise<WorkerResult> => {
    process.stderr.write(`running the ${mode}...\n`);
    // where the cores went meanwhile: the worker reports its own CPU time (it is gone
    // before /proc could be read), the server's is read from /proc
    const split = await cpuSplit({ serve: () => (server.child.pid ? [server.child.pid] : []) }, CORES, async () => {
      const out = await runChild([self, '--worker', mode, '--url', url, '--concurrency', String(concurrency), ...extra]).stdout;
      return JSON.parse(out) as WorkerResult;
    });
    const r = split.result;
    const seconds = { [mode]: r.cpuSeconds, ...split.seconds };
    const rest = { ...split.rest, 'other busy': Math.max(0, split.rest['other busy'] - r.cpuSeconds) };
    splits.push(`${mode}: ${formatSplit({ available: split.available, seconds, rest })} (${r.cpuSeconds.toFixed(1)} s in the ${mode}, ${split.seconds.serve!.toFixed(1)} s in serve, ${(r.ms / 1000).toFixed(1)} s wall)`);
    if (mode === 'pull') pullCeiling = throughputCeiling(split);
    return r;
  };
  let pullCeiling = 0;
  // the loop before and after the pull: the pull is compared with the mean of the two
  const loopA = await worker('loop');
  const pulled = await worker('pull', ['--db', join(dir, 'copy.db')]);
  const loopB = await worker('loop');

  const rate = (r: WorkerResult) => (r.rows / r.ms) * 1000;
  const loopRate = (rate(loopA) + rate(loopB)) / 2;
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  console.log(`directory:   ${size}: ${fmt(counts.chambers)} chambers, ${fmt(counts.members)} members, ${fmt(counts.events)} events; concurrency ${concurrency}`);
  console.log(`paged GETs:  ${fmt(rate(loopA))} and ${fmt(rate(loopB))} rows/s (before and after the pull; ${fmt(loopA.rows)} rows)`);
  console.log(`sync pull:   ${fmt(rate(pulled))} rows/s (${fmt(pulled.rows)} rows in ${(pulled.ms / 1000).toFixed(1)} s)`);
  const ratio = rate(pulled) / loopRate;
  console.log(`ratio:       ${ratio.toFixed(2)}x the paged GETs (target >= 0.8: ${ratio >= 0.8 ? 'PASS' : 'MISS'})`);
  // What bounds it: the CPU the pull and the server spent in all, had it kept every core busy
  // (the pull's CPU per row as it is; see "where the cores went" below).
  console.log(`             at most ${(ratio * pullCeiling).toFixed(2)}x on this machine at the pull's CPU per row: the pull and the server kept ${Math.round(100 / pullCeiling)}% of the cores busy`);
  // the target is in MB (10^6 bytes), the figures in MiB as the other benches print them
  const mb = (pulled.maxRssMiB * 2 ** 20) / 1e6;
  console.log(
    `peak RSS:    sync pull ${pulled.maxRssMiB.toFixed(0)} MiB = ${mb.toFixed(0)} MB (target < 200 MB: ${mb < 200 ? 'PASS' : 'MISS'}); paged GETs ${loopA.maxRssMiB.toFixed(0)} MiB`,
  );
  console.log(`where the ${CORES} cores went (CPU time as a share of cores x wall time):`);
  for (const line of splits) console.log(`  ${line}`);
  server.child.kill('SIGTERM');
}

const mode = arg('--worker', '');
if (mode === 'copy') {
  serveCopyInWorker(); // the pull's copy, on a worker thread of the pull's process
} else if (mode) {
  const url = arg('--url', '');
  const concurrency = Number(arg('--concurrency', '8'));
  const result = mode === 'pull' ? await pullWorker(url, arg('--db', ''), concurrency) : await loopWorker(url, concurrency);
  process.stdout.write(JSON.stringify(result));
} else {
  await main();
}
