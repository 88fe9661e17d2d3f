// What a person sees in an 80-column terminal (a pseudo-terminal here): tables that keep
// names and e-mail addresses, and JSON highlighted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';
import { runOnPty } from '../helpers/pty.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';

const CLIENT = { id: 'tty-client', secret: 'TtySecret0123456789' };
const FLAGSHIP = 'ch_ms2fLiZry7iy3IuE';
let dir: string;
let cfg: string;
let server: ServeProcess;

beforeAll(async () => {
  dir = await makeTempDir('chamberctl-tty-');
  cfg = `${dir}/cfg`;
  server = await startServeProcess(['--port', '0', '--db', ':memory:', '--client-id', CLIENT.id, '--client-secret', CLIENT.secret, '--quiet'], {
    CHAMBERCTL_CONFIG_DIR: `${dir}/cfg-serve`,
  });
  expect((await runCli(['login', '--base-url', server.baseUrl, '--client-id', CLIENT.id, '--client-secret-stdin'], { configDir: cfg, input: CLIENT.secret })).exitCode).toBe(0);
});
afterAll(async () => {
  await server?.stop();
  await removeTempDir(dir);
});

describe('on an 80-column terminal', () => {
  it('members list leaves out lower-value columns first, then cuts e-mail addresses in the middle, never names that fit', async () => {
    const members = JSON.parse((await runCli(['members', 'list', FLAGSHIP, '--per-page', '10', '--json'], { configDir: cfg })).stdout) as { name: string; email: string }[];
    const r = await runOnPty(['members', 'list', FLAGSHIP, '--per-page', '10'], { configDir: cfg, steps: [], columns: 80 });
    expect(r.exitCode, r.output).toBe(0);
    const lines = r.output.split('\n').filter((l) => l.startsWith('mb_') || l.startsWith('ID'));
    expect(lines[0]).toMatch(/^ID\s+NAME\s+EMAIL\s+STATUS$/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(lines).toHaveLength(members.length + 1);
    members.forEach((m, i) => {
      const row = lines[i + 1]!;
      expect(row).toContain(m.name);
      // the start and the end of the address stay (the domain tells members apart)
      expect(row).toContain(m.email.slice(0, 10));
      expect(row).toContain(m.email.slice(-8));
    });
  });

  it('events list gives the room to titles: the start stands for the span, and no title that fits is cut', async () => {
    const events = JSON.parse((await runCli(['events', 'list', FLAGSHIP, '--per-page', '10', '--json'], { configDir: cfg })).stdout) as { title: string }[];
    const r = await runOnPty(['events', 'list', FLAGSHIP, '--per-page', '10'], { configDir: cfg, steps: [], columns: 80 });
    expect(r.exitCode, r.output).toBe(0);
    const lines = r.output.split('\n').filter((l) => l.startsWith('ev_') || l.startsWith('ID'));
    expect(lines[0]).toMatch(/^ID\s+TITLE\s+STATUS\s+STARTS \(UTC\)$/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    events.forEach((e, i) => expect(lines[i + 1]).toContain(e.title));
    expect(lines[1]).toMatch(/ \d{4}-\d\d-\d\d \d\d:\d\d$/);
  });

  it('chambers list shows more columns as the terminal widens: the city at 100, the creation day at 120', async () => {
    const headerAt = async (columns: number) => {
      const r = await runOnPty(['chambers', 'list', '--per-page', '10'], { configDir: cfg, steps: [], columns });
      expect(r.exitCode, r.output).toBe(0);
      const lines = r.output.split('\n').filter((l) => l.startsWith('ch_') || l.startsWith('ID'));
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(columns);
      return lines[0]!.split(/\s{2,}/);
    };
    expect(await headerAt(80)).toEqual(['ID', 'NAME', 'TYPE', 'STATUS']);
    expect(await headerAt(100)).toEqual(['ID', 'NAME', 'TYPE', 'STATUS', 'LOCATION']);
    expect(await headerAt(120)).toEqual(['ID', 'NAME', 'TYPE', 'STATUS', 'LOCATION', 'CREATED']);
    expect(await headerAt(160)).toEqual(['ID', 'NAME', 'TYPE', 'STATUS', 'HQ', 'LOCATION', 'CREATED']);
  });

  it('a server that answers 503: the spinner line says which retry it is and why', async () => {
    const proxy = await startFaultProxy(server.baseUrl, (req) => req.method === 'GET' && /^\/v1\/chambers\?/.test(req.url ?? ''));
    try {
      proxy.failNext(2, 503, '1');
      // the proxy is another origin: the profile's credentials stay home, the environment's go
      const env = { CHAMBERCTL_CLIENT_ID: CLIENT.id, CHAMBERCTL_CLIENT_SECRET: CLIENT.secret };
      const r = await runOnPty(['chambers', 'list', '--per-page', '3', '--base-url', proxy.baseUrl], { configDir: cfg, steps: [], columns: 100, env });
      expect(r.exitCode, r.output).toBe(0);
      expect(r.output).toContain('Loading chambers: retrying (2/4) after 503…');
      expect(r.output).toContain('Loading chambers: retrying (3/4) after 503…');
      expect(r.output).toContain(FLAGSHIP);
      expect(proxy.stats.failed).toBe(2);
    } finally {
      await proxy.close();
    }
  });

  it('chambers get --json is highlighted, and the same JSON', async () => {
    const r = await runOnPty(['chambers', 'get', FLAGSHIP, '--json'], { configDir: cfg, steps: [], columns: 80 });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.output.slice(r.output.indexOf('{'))).id).toBe(FLAGSHIP);
  });

  it('sync pull shows its progress on the terminal (chambers done of total, rows/s), then the result', async () => {
    const r = await runOnPty(['sync', 'pull', '--db', `${dir}/copy.db`, '--concurrency', '1'], { configDir: cfg, steps: [], columns: 80, timeoutMs: 60_000 });
    expect(r.exitCode, r.output).toBe(0);
    expect(r.output).toMatch(/chambers [\d,]+ of [\d,?]+ · [\d,]+ rows · [\d,]+ rows\/s/);
    expect(r.output).toMatch(/Pulled http:\/\/127\.0\.0\.1:\d+ \(profile "default"\) into .*copy\.db in [\d.]+ s: 200 chambers, [\d,]+ members, [\d,]+ events/);
  });
});
