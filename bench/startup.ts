// npm run bench:startup — start-up cost of the CLI, as medians and as ratios to `node -e 0`
// measured in the same run (the machines are shared and noisy; only ratios compare):
//   node -e 0                                  the floor: starting node at all
//   node bin/chamberctl.js --version           target <= 1.15x
//   node bin/chamberctl.js chambers list       target <= 1.6x: a real request to a local
//                                              server with a cached token, output piped (TSV)
//   ... chambers list --json, and --jq '.[0].name', whose difference is what --jq costs
// and two floors of that command, measured alongside (bench/floor/):
//   the same GET with node:http alone         what any HTTP command pays, however written
//   the same GET through the CLI's undici     what undici costs, loaded as the CLI loads it
// A second target for `chambers list`: at most 1.25x the undici floor of the same run (what
// the command itself adds to the request it makes), printed as a PASS or MISS line.
// It measures the runtime it runs on (process.execPath), named in the first line; for
// another one: scripts/runtimes.sh run 24.21.0 npm run bench:startup.
// When the single executable has been built (npm run build:binary), its --version and
// chambers list are measured beside `node bin/chamberctl.js`'s, against the same `node -e 0`;
// it holds Node 26.10.0, so the two compare like for like under
// scripts/runtimes.sh run 26.10.0 npm run bench:startup.
// Each command runs WARMUP times, then RUNS times, interleaved so that noise spreads evenly.
// Options: --runs N (default 20), --warmup N (default 3), --strict (exit 1 when a target is
// missed), --clean-env (run with only PATH and HOME instead of this shell's environment;
// e.g. NODE_EXTRA_CA_CERTS makes every node start load certificates, which raises the floor).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'chamberctl.js');
const BINARY = join(ROOT, 'dist', 'bin', 'chamberctl');
const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const RUNS = flag('--runs', 20);
const WARMUP = flag('--warmup', 3);
const STRICT = args.includes('--strict');
const CLEAN_ENV = args.includes('--clean-env');
const CLIENT_ID = 'bench';
const CLIENT_SECRET = 'BenchStartupSecret0123456789';

const dir = mkdtempSync(join(tmpdir(), 'chamberctl-bench-startup-'));
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

// The CLI runs in this shell's environment (or only PATH and HOME with --clean-env), minus
// any CHAMBERCTL_* or colour settings, with a temporary config directory of its own.
const inherited = Object.fromEntries(
  Object.entries(CLEAN_ENV ? { PATH: process.env.PATH, HOME: process.env.HOME } : process.env).filter(
    ([k]) => !k.startsWith('CHAMBERCTL_') && k !== 'NO_COLOR' && k !== 'FORCE_COLOR' && k !== 'NODE_OPTIONS',
  ),
);
const cliEnv: NodeJS.ProcessEnv = { ...inherited, CHAMBERCTL_CONFIG_DIR: join(dir, 'client') };

/** `chamberctl serve` on a free port with an in-memory database; resolves with its base URL. */
function startServer(): Promise<string> {
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--db', ':memory:', '--quiet', '--client-id', CLIENT_ID, '--client-secret', CLIENT_SECRET],
    // its own config dir, so the profile it may write does not touch the client's
    { cwd: ROOT, env: { ...cliEnv, CHAMBERCTL_CONFIG_DIR: join(dir, 'server') }, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /(http:\/\/[^\s"]+)/.exec(out);
      if (m) resolve(m[1]!.replace(/\/v[12]$/, ''));
    });
    child.on('exit', (code) => reject(new Error(`chamberctl serve exited with ${code}: ${out}`)));
  });
}

/** Runs `command argv` (node by default) once; its wall time in ms. */
function runOnce(argv: string[], command = process.execPath): number {
  const started = process.hrtime.bigint();
  const r = spawnSync(command, argv, { cwd: ROOT, env: cliEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`${command} ${argv.join(' ')} failed (${r.status}):\n${r.stderr}`);
  return ms;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

const baseUrl = await startServer();
runOnce([BIN, 'login', '--base-url', baseUrl, '--client-id', CLIENT_ID, '--client-secret', CLIENT_SECRET]);
// the floors make the CLI's own request (`chambers list` asks v1 for page 1) with its token
const token = spawnSync(process.execPath, [BIN, 'auth', 'token', '--api-version', 'v1'], { cwd: ROOT, env: cliEnv, encoding: 'utf8' }).stdout.trim();
Object.assign(cliEnv, { FLOOR_URL: `${baseUrl}/v1/chambers?page=1`, FLOOR_TOKEN: token, FLOOR_CACHE_DIR: join(dir, 'floor-cache') });
const FLOORS = join(ROOT, 'dist', 'bench', 'floor');

const cases: Array<{ name: string; argv: string[]; command?: string; target?: number }> = [
  { name: 'node -e 0', argv: ['-e', '0'] },
  { name: 'chamberctl --version', argv: [BIN, '--version'], target: 1.15 },
  { name: 'chamberctl chambers list', argv: [BIN, 'chambers', 'list'], target: 1.6 },
  // --jq (issue 46): jq in WebAssembly, loaded only then; --json is the same command without it
  { name: 'chambers list --json', argv: [BIN, 'chambers', 'list', '--json'] },
  { name: "chambers list --jq '.[0].name'", argv: [BIN, 'chambers', 'list', '--jq', '.[0].name'] },
  { name: 'floor: GET, node:http', argv: [join(FLOORS, 'http-get.cjs')] },
  { name: 'floor: GET, undici', argv: [join(FLOORS, 'run-undici-get.cjs')] },
];
// The single executable, when built from this build of dist/ (dist/build-id, a hash of the
// bundle's files, is one of its assets).
const buildId = readFileSync(join(ROOT, 'dist', 'build-id'), 'utf8').trim();
const binaryState = !existsSync(BINARY)
  ? 'not built (npm run build:binary, then run this again to measure it too)'
  : !readFileSync(BINARY).includes(buildId)
    ? 'built from another dist/ (npm run build:binary again); not measured'
    : 'measured';
if (binaryState === 'measured') {
  cases.push(
    { name: 'binary --version', argv: ['--version'], command: BINARY },
    { name: 'binary chambers list', argv: ['chambers', 'list'], command: BINARY },
    { name: "binary list --jq '.[0].name'", argv: ['chambers', 'list', '--jq', '.[0].name'], command: BINARY },
  );
}
// the warm-up also caches the v1 token, so the measured runs reuse it
for (let i = 0; i < WARMUP; i++) for (const c of cases) runOnce(c.argv, c.command);
const times = cases.map(() => [] as number[]);
for (let i = 0; i < RUNS; i++) cases.forEach((c, j) => times[j]!.push(runOnce(c.argv, c.command)));

const floor = median(times[0]!);
let missed = 0;
console.log(`runtime: node ${process.version} (${process.execPath})`);
console.log(
  `start-up, median of ${RUNS} runs after ${WARMUP} warm-ups (node ${process.version}, ${CLEAN_ENV ? 'clean' : 'inherited'} environment)`,
);
cases.forEach((c, j) => {
  const m = median(times[j]!);
  const ratio = m / floor;
  const verdict = c.target === undefined ? '' : ratio <= c.target ? `  ok (target <= ${c.target}x)` : `  MISSED (target <= ${c.target}x)`;
  if (c.target !== undefined && ratio > c.target) missed++;
  console.log(`  ${c.name.padEnd(32)} ${m.toFixed(1).padStart(7)} ms  ${ratio.toFixed(2)}x${verdict}`);
});
console.log(
  '  (floors: the request of `chambers list` alone, with node:http and nothing else, and through the\n' +
    "   CLI's undici code loaded as the CLI loads it; a command can be no quicker than its floor)",
);
console.log(`  (the single executable, dist/bin/chamberctl, Node 26.10.0 inside: ${binaryState})`);
// The command against its undici floor: what the CLI adds to the request it makes.
const UNDICI_FLOOR_TARGET = 1.25;
const medianOf = (name: string) => median(times[cases.findIndex((c) => c.name === name)]!);
const overUndici = medianOf('chamberctl chambers list') / medianOf('floor: GET, undici');
const pass = overUndici <= UNDICI_FLOOR_TARGET;
if (!pass) missed++;
// --jq's own cost: what loading jq and running one filter adds to the same command's --json
const jqCost = medianOf("chambers list --jq '.[0].name'") - medianOf('chambers list --json');
console.log(`  --jq '.[0].name' adds ${jqCost.toFixed(1)} ms to chambers list --json (jq-wasm loaded, compiled and run once)`);
console.log(
  `  ${pass ? 'PASS' : 'MISS'}: chambers list ${overUndici.toFixed(2)}x the undici floor of this run (target <= ${UNDICI_FLOOR_TARGET}x; node ${process.version})`,
);
if (STRICT && missed) process.exitCode = 1;
for (const c of children) c.kill('SIGTERM');
