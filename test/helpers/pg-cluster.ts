// A throwaway PostgreSQL cluster on a port of its own (Debian's postgresql-common tools, as
// root), for a test that stops and starts a real server without touching the shared one on
// 5432 that other tests use. Dropped at the end whatever happens; one left behind by a run
// that was killed is dropped by the next run.
import { createServer, type AddressInfo } from 'node:net';
import { execa } from 'execa';

export interface ThrowawayCluster {
  name: string;
  version: string;
  port: number;
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust authentication). */
  adminUrl: string;
  /** Milliseconds pg_createcluster took, and the first start. */
  timings: { createMs: number; startMs: number };
  start(): Promise<number>;
  /** `pg_ctlcluster … stop -m fast`: sessions ended, the port closed. */
  stop(): Promise<number>;
  drop(): Promise<void>;
}

const PREFIX = 'outage_';

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function timed(cmd: string, args: string[]): Promise<number> {
  const started = performance.now();
  const r = await execa(cmd, args, { reject: false, stdin: 'ignore', timeout: 60_000 });
  if (r.exitCode !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.exitCode}): ${r.stderr || r.stdout}`);
  return performance.now() - started;
}

export async function createThrowawayCluster(): Promise<ThrowawayCluster> {
  const listed = await execa('pg_lsclusters', ['--no-header'], { reject: false }).catch((err: Error) => ({ exitCode: 1, stdout: '', stderr: err.message }));
  if (listed.exitCode !== 0) {
    throw new Error(`pg_lsclusters failed: a throwaway cluster needs Debian's postgresql-common and root (${String(listed.stderr).trim()})`);
  }
  const rows = String(listed.stdout).trim().split('\n').filter(Boolean).map((l) => l.trim().split(/\s+/));
  const version = rows[0]?.[0];
  if (!version) throw new Error('pg_lsclusters lists no cluster: no PostgreSQL version to make a throwaway cluster of');
  for (const [v, name] of rows) {
    const pid = name?.startsWith(PREFIX) ? Number(name.slice(PREFIX.length)) : NaN;
    if (Number.isInteger(pid) && !alive(pid)) await execa('pg_dropcluster', ['--stop', v!, name!], { reject: false });
  }
  const name = `${PREFIX}${process.pid}`;
  const port = await freePort();
  const ctl = (action: string, ...rest: string[]) => timed('pg_ctlcluster', ['--skip-systemctl-redirect', version, name, action, ...rest]);
  const createMs = await timed('pg_createcluster', [version, name, '-p', String(port), '--', '--auth=trust']);
  let startMs: number;
  try {
    startMs = await ctl('start');
  } catch (err) {
    await execa('pg_dropcluster', ['--stop', version, name], { reject: false });
    throw err;
  }
  return {
    name,
    version,
    port,
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    timings: { createMs, startMs },
    start: () => ctl('start'),
    stop: () => ctl('stop', '-m', 'fast'),
    async drop() {
      const r = await execa('pg_dropcluster', ['--stop', version, name], { reject: false, timeout: 60_000 });
      if (r.exitCode !== 0) throw new Error(`pg_dropcluster --stop ${version} ${name} failed: ${r.stderr}`);
    },
  };
}
