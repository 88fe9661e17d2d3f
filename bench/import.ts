// npm run bench:import — `members import` against a local `chamberctl serve`, compared in
// the same run with the raw POST throughput of that server (autocannon on the same endpoint,
// as many connections as the import's --concurrency, unique e-mails), plus the peak RSS of
// the CLI process.
//
//   BENCH_ROWS         rows of the throughput run (default 100000)
//   BENCH_CONCURRENCY  --concurrency of the import and autocannon's connections (default 8)
//   BENCH_RSS_ROWS     rows of the memory run (default 1000000)
//   BENCH_RSS_MODE     `dry-run` (default: reads, checks and de-duplicates every row, sends
//                      nothing) or `real` (sends them all: minutes on a small machine)
//
// Peak RSS comes from /usr/bin/time -v when present, else from polling VmHWM in /proc.
// Figures only: targets are printed as PASS/MISS, never asserted.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'chamberctl.js');
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const RSS_ROWS = Number(process.env.BENCH_RSS_ROWS ?? 1_000_000);
const RSS_MODE = process.env.BENCH_RSS_MODE === 'real' ? 'real' : 'dry-run';
const CLIENT_ID = 'benchimport';
const CLIENT_SECRET = 'BenchImportSecret0123456789';
const TIME = '/usr/bin/time';

const dir = mkdtempSync(join(tmpdir(), 'chamberctl-bench-import-'));
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});
const cliEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, CHAMBERCTL_CONFIG_DIR: join(dir, 'client') };

function startServe(): Promise<string> {
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--db', join(dir, 'bench.db'), '--seed', 'none', '--client-id', CLIENT_ID, '--client-secret', CLIENT_SECRET, '--quiet', '--json'],
    { env: { ...cliEnv, CHAMBERCTL_CONFIG_DIR: join(dir, 'server') }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /"base_url":"([^"]+)"/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
  peakRssKb?: number;
}

/** Runs the CLI, under /usr/bin/time -v when it exists, else polling VmHWM. */
function runCli(args: string[]): Promise<Run> {
  const timed = existsSync(TIME);
  const [cmd, argv] = timed ? [TIME, ['-v', process.execPath, BIN, ...args]] : [process.execPath, [BIN, ...args]];
  const started = performance.now();
  const child = spawn(cmd, argv, { env: cliEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  let polledKb = 0;
  const poll = timed
    ? undefined
    : setInterval(() => {
        try {
          const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
          if (m) polledKb = Math.max(polledKb, Number(m[1]));
        } catch {
          // gone
        }
      }, 20);
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      if (poll) clearInterval(poll);
      const seconds = (performance.now() - started) / 1000;
      const fromTime = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      const peakRssKb = fromTime ? Number(fromTime[1]) : polledKb || undefined;
      resolve({ code, stdout, stderr, seconds, ...(peakRssKb ? { peakRssKb } : {}) });
    });
  });
}

async function writeCsv(path: string, rows: number, tag: string): Promise<number> {
  const out = createWriteStream(path);
  out.write('name,email,phone,membership_type\n');
  const types = ['standard', 'premium', 'corporate', 'honorary'];
  for (let i = 0; i < rows; i++) {
    const line = `Member ${i},${tag}.${i}@example.org,+49 30 ${100000 + (i % 900000)},${types[i % 4]}\n`;
    if (!out.write(line)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r) => out.end(() => r()));
  return statSync(path).size;
}

const mb = (kb: number | undefined) => (kb === undefined ? 'n/a' : `${(kb / 1024).toFixed(1)} MB`);

async function main() {
  const base = await startServe();
  const tokenRes = await fetch(`${base}/v2/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET }),
  });
  const token = ((await tokenRes.json()) as { access_token: string }).access_token;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const newChamber = async (name: string) => {
    const r = await fetch(`${base}/v2/chambers`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name, type: 'hq', address: { street: '1 Bench St', city: 'Berlin', country: 'DE' } }),
    });
    return ((await r.json()) as { id: string }).id;
  };
  const [rawChamber, importChamber, rssChamber] = [await newChamber('Raw'), await newChamber('Import'), await newChamber('RSS')];

  const login = await runCli(['login', '--base-url', base, '--client-id', CLIENT_ID, '--client-secret', CLIENT_SECRET]);
  if (login.code !== 0) throw new Error(`login failed: ${login.stderr}`);

  const file = join(dir, 'members.csv');
  const bytes = await writeCsv(file, ROWS, 'cli');
  process.stderr.write(`${ROWS} rows (${(bytes / 1e6).toFixed(1)} MB); raw POSTs with autocannon, ${CONCURRENCY} connections...\n`);

  // the raw server: the same POST, one unique e-mail per request, as many requests as rows
  let n = 0;
  const raw = await autocannon({
    url: base,
    connections: CONCURRENCY,
    amount: ROWS,
    requests: [
      {
        method: 'POST',
        path: `/v2/chambers/${rawChamber}/members`,
        headers,
        setupRequest: (req) => {
          const i = n++;
          return { ...req, body: JSON.stringify({ name: `Member ${i}`, email: `raw.${i}@example.org`, phone: '+49 30 100000', membership_type: 'standard' }) };
        },
      },
    ],
  });
  const rawRps = raw.requests.total / (raw.duration || 1);
  process.stderr.write(`  raw: ${Math.round(rawRps)} req/s (${raw.non2xx} non-2xx, ${raw.errors} errors)\n`);

  process.stderr.write(`import with the CLI, --concurrency ${CONCURRENCY}...\n`);
  const cli = await runCli(['members', 'import', importChamber, file, '--json', '--concurrency', String(CONCURRENCY)]);
  if (cli.code !== 0) throw new Error(`import exited with ${cli.code}: ${cli.stderr}`);
  const summary = JSON.parse(cli.stdout) as { created: number; rows_per_second: number; elapsed_seconds: number };
  const cliRps = summary.created / cli.seconds; // the whole process, start-up included
  process.stderr.write(`  cli: ${Math.round(cliRps)} rows/s\n`);

  const rssFile = join(dir, 'rss.csv');
  const rssBytes = await writeCsv(rssFile, RSS_ROWS, 'rss');
  process.stderr.write(`memory: ${RSS_ROWS} rows (${(rssBytes / 1e6).toFixed(1)} MB), ${RSS_MODE}...\n`);
  const rss = await runCli([
    'members', 'import', rssChamber, rssFile, '--json', '--concurrency', String(CONCURRENCY), ...(RSS_MODE === 'dry-run' ? ['--dry-run'] : []),
  ]);
  if (rss.code !== 0) throw new Error(`memory run exited with ${rss.code}: ${rss.stderr}`);

  const ratio = cliRps / rawRps;
  console.log(`\nimport benchmark: node ${process.version}, --concurrency ${CONCURRENCY} / ${CONCURRENCY} connections`);
  console.table([
    { run: `raw POST (autocannon, ${ROWS} requests)`, 'rows/s': Math.round(rawRps), seconds: +raw.duration.toFixed(1), 'peak RSS': '' },
    { run: `members import (${ROWS} rows)`, 'rows/s': Math.round(cliRps), seconds: +cli.seconds.toFixed(1), 'peak RSS': mb(cli.peakRssKb) },
    { run: `members import ${RSS_MODE === 'dry-run' ? '--dry-run ' : ''}(${RSS_ROWS} rows)`, 'rows/s': Math.round(RSS_ROWS / rss.seconds), seconds: +rss.seconds.toFixed(1), 'peak RSS': mb(rss.peakRssKb) },
  ]);
  console.log(`ratio import / raw: ${ratio.toFixed(2)}x`);
  console.log(`peak RSS measured with ${existsSync(TIME) ? '/usr/bin/time -v' : 'VmHWM polling'}`);
  const checks: Array<[string, boolean]> = [
    ['import >= 0.6x raw POST throughput', ratio >= 0.6],
    [`peak RSS < 150 MB for ${RSS_ROWS} rows (${RSS_MODE})`, (rss.peakRssKb ?? Infinity) < 150 * 1024],
    [`peak RSS < 150 MB for ${ROWS} rows (real import)`, (cli.peakRssKb ?? Infinity) < 150 * 1024],
    ['raw run without errors', raw.errors === 0 && raw.non2xx === 0],
  ];
  for (const [what, ok] of checks) console.log(`${ok ? 'PASS' : 'MISS'}  ${what}`);
  process.exit(0);
}

main().catch((err) => {
  console.error(`bench:import failed: ${(err as Error).message}`);
  process.exit(1);
});
