// npm run demo: starts `chamberctl serve` on a free port with a throwaway database and
// config directory, runs a short tour of commands against it, and stops it again.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/chamberctl.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'chamberctl-demo-'));
const env = { ...process.env, CHAMBERCTL_CONFIG_DIR: join(dir, 'config'), CHAMBERCTL_DATA_DIR: join(dir, 'data') };

const server = spawn(process.execPath, [bin, 'serve', '--port', '0', '--db', ':memory:', '--quiet', '--log-format', 'text'], {
  env,
  stdio: ['ignore', 'pipe', 'pipe'],
});
let out = '';
let err = '';
server.stdout.setEncoding('utf8');
server.stderr.setEncoding('utf8');
// Ready once it has printed its URLs and credentials and saved the "local" profile.
await new Promise((resolve, reject) => {
  const check = () => /client secret/.test(out) && /profile "local"/.test(err) && resolve();
  server.stdout.on('data', (d) => ((out += d), check()));
  server.stderr.on('data', (d) => ((err += d), check()));
  server.on('exit', (code) => reject(new Error(`serve exited with ${code}\n${err}`)));
});
process.stdout.write(`${err}${out.replace(/(client secret:\s+)\S+/, '$1(shown once; hidden here)')}\n`);

/**
 * Runs one command as a user would see it: on a terminal its output goes straight there
 * (tables, colour), so the demo shows what a user sees; piped, it is captured and printed.
 * `capture` is for a value the tour needs (an id): the command's JSON is printed as well.
 */
function run(args, { capture = false } = {}) {
  const shown = args.map((a) => (/[\s"'$]/.test(a) ? `'${a}'` : a)).join(' ');
  process.stdout.write(`$ chamberctl ${shown}\n`);
  const direct = process.stdout.isTTY && !capture;
  const r = spawnSync(process.execPath, [bin, ...args], { env, stdio: ['ignore', direct ? 'inherit' : 'pipe', 'inherit'], encoding: 'utf8' });
  process.stdout.write(direct ? '\n' : `${r.stdout}\n`);
  if (r.status !== 0) throw new Error(`chamberctl ${args.join(' ')} exited with ${r.status}`);
  return r.stdout;
}

try {
  run(['auth', 'status']);
  run(['chambers', 'list', '--type', 'hq', '--sort', 'name', '--per-page', '5']);
  const id = JSON.parse(run(['chambers', 'list', '--per-page', '1', '--json'], { capture: true }))[0].id;
  run(['chambers', 'get', id]);
  run(['members', 'list', id, '--sort', '-joined_at', '--per-page', '5']);
  run(['events', 'list', id, '--status', 'upcoming', '--per-page', '5']);
  run(['members', 'add', id, '--name', 'Ada Lovelace', '--email', 'ada@example.org', '--membership-type', 'honorary', '--json']);
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.on('exit', resolve));
  rmSync(dir, { recursive: true, force: true });
}
