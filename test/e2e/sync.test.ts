// Offline work end to end (docs/guides/working-offline.md), with the built binary: a "remote"
// `serve` and copies of it served by a second `serve`, each with its own database and
// config directory. Pull and compare every list item by item; kill a pull halfway and run
// it again; create records offline and push them; kill a push between a POST and its
// bookkeeping and run it again (nothing twice); a change the remote rejects.
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';
import { expectSameDirectory, freePort, tokenFor, walk, type Side } from '../helpers/directory-walk.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { runRecordingLoads } from '../helpers/bundle-loads.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { openDatabase } from '../../src/storage/sqlite/database.js';
import { KEY, runOnPty } from '../helpers/pty.js';

const REMOTE = { id: 'remote-client', secret: 'RemoteSecret0123456789' };
const LOCAL = { id: 'local-client', secret: 'LocalSecret0123456789' };

let dir: string;
let cfg: string;
let remotePort: number;
let remote: ServeProcess;
const servers: ServeProcess[] = [];

const cli = (args: string[], input?: string) => runCli(args, { configDir: cfg, timeout: 90_000, ...(input !== undefined ? { input } : {}) });
const json = (text: string) => JSON.parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function startRemote(db = `${dir}/remote.db`, seed = 'demo'): Promise<void> {
  remote = await startServeProcess(
    ['--port', String(remotePort), '--db', db, '--seed', seed, '--client-id', REMOTE.id, '--client-secret', REMOTE.secret, '--quiet'],
    { CHAMBERCTL_CONFIG_DIR: `${dir}/cfg-remote` },
  );
}

/** `serve` on a copy, and a CLI profile named `name` that points at it. */
async function serveCopy(db: string, name: string): Promise<ServeProcess> {
  const s = await startServeProcess(
    ['--port', '0', '--db', db, '--seed', 'none', '--client-id', LOCAL.id, '--client-secret', LOCAL.secret, '--quiet'],
    { CHAMBERCTL_CONFIG_DIR: `${dir}/cfg-${name}` },
  );
  servers.push(s);
  await login(name, s.baseUrl, LOCAL);
  return s;
}

async function login(profile: string, baseUrl: string, c: { id: string; secret: string }): Promise<void> {
  const r = await cli(['login', '--profile', profile, '--base-url', baseUrl, '--client-id', c.id, '--client-secret-stdin'], c.secret);
  expect(r.exitCode, r.stderr).toBe(0);
}

const side = async (baseUrl: string, c: { id: string; secret: string }): Promise<Side> => ({
  baseUrl,
  v1: await tokenFor(baseUrl, c.id, c.secret, 'v1'),
  v2: await tokenFor(baseUrl, c.id, c.secret, 'v2'),
});

async function create(profile: string, args: string[]): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = await cli(['--profile', profile, '--json', ...args]);
  expect(r.exitCode, r.stderr).toBe(0);
  return json(r.stdout);
}
const hqArgs = (name: string) => ['chambers', 'create', '--name', name, '--type', 'hq', '--street', '1 Quay', '--city', 'Ghent', '--country', 'BE'];
const memberArgs = (chamberId: string, email: string) => ['members', 'add', chamberId, '--name', `Member ${email}`, '--email', email, '--membership-type', 'standard'];

async function status(db: string) {
  const r = await cli(['sync', 'status', '--db', db, '--json']);
  expect(r.exitCode, r.stderr).toBe(0);
  return json(r.stdout);
}

/** The remote's chambers with this name (to count copies). */
async function remoteChambersNamed(name: string) {
  const s = await side(remote.baseUrl, REMOTE);
  return (await walk(remote.baseUrl, s.v2, '/v2/chambers?sort=-created_at')).filter((c) => c.name === name);
}

/**
 * `sync pull` into `db` over a slow link (100 ms per member list: 200 chambers, 2 at a time,
 * ~10 s in all) through a profile `profile` of its own, once `done` chambers are finished,
 * so that a signal sent then lands mid-way.
 */
async function slowPull(profile: string, db: string, done: number) {
  const proxy = await startFaultProxy(remote.baseUrl, (req) => req.method === 'GET' && /\/members/.test(req.url ?? ''));
  proxy.delayMs = 100;
  await login(profile, proxy.baseUrl, REMOTE);
  const proc = execa(process.execPath, [BIN, 'sync', 'pull', '--from', profile, '--db', db, '--concurrency', '2'], {
    env: { ...cleanEnv(), CHAMBERCTL_CONFIG_DIR: cfg },
    extendEnv: false,
    reject: false,
  });
  for (let seen = 0; seen < done; await new Promise((r) => setTimeout(r, 10))) {
    if (!existsSync(db)) continue;
    try {
      const peek = openDatabase(db, { readOnly: true });
      try {
        seen = peek.prepare('SELECT count(*) FROM sync_done').pluck().get() as number;
      } finally {
        peek.close();
      }
    } catch {
      // the schema is being created
    }
  }
  return { proxy, proc };
}

beforeAll(async () => {
  dir = await makeTempDir('chamberctl-sync-');
  cfg = `${dir}/cfg`;
  remotePort = await freePort();
  await startRemote();
  await login('remote', remote.baseUrl, REMOTE);
}, 60_000);

afterAll(async () => {
  await Promise.all([remote?.stop(), ...servers.map((s) => s.stop())]);
  await removeTempDir(dir);
});

describe('sync pull', () => {
  it('copies every chamber, member and event: the copy serves the same lists, item by item', async () => {
    const r = await cli(['sync', 'pull', '--from', 'remote', '--db', `${dir}/copy.db`, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe(''); // no progress when not on a terminal
    const counts = json(r.stdout);
    const copy = await serveCopy(`${dir}/copy.db`, 'offline');
    const compared = await expectSameDirectory(await side(remote.baseUrl, REMOTE), await side(copy.baseUrl, LOCAL));
    expect({ chambers: counts.chambers, members: counts.members, events: counts.events }).toEqual(compared);
    expect(compared.chambers).toBeGreaterThan(100);

    const st = await status(`${dir}/copy.db`);
    expect(st.source).toEqual({ profile: 'remote', base_url: remote.baseUrl });
    expect(Date.parse(st.pulled_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(st.counts).toEqual(compared);
    expect(st.pending).toEqual([]);
  }, 120_000);

  it("refreshes a copy from the profile it came from, whatever the current profile is", async () => {
    const r = await runCli(['sync', 'pull', '--db', `${dir}/copy.db`, '--json'], { configDir: cfg, env: { CHAMBERCTL_PROFILE: 'offline' }, timeout: 90_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await status(`${dir}/copy.db`)).source).toEqual({ profile: 'remote', base_url: remote.baseUrl });
    // named, another profile is still refused
    const other = await cli(['sync', 'pull', '--from', 'offline', '--db', `${dir}/copy.db`]);
    expect(other.exitCode).toBe(1);
    expect(other.stderr).toMatch(/is a copy of .* \(profile "remote"\), not of/);
  }, 120_000);

  it('writes the copy on a worker thread, beside the HTTP work', async () => {
    const r = await runRecordingLoads(['sync', 'pull', '--from', 'remote', '--db', `${dir}/copy-threaded.db`, '--json'], { CHAMBERCTL_CONFIG_DIR: cfg });
    expect(r.exitCode, r.stderr).toBe(0);
    // the worker's side is loaded only by the program started again in a worker thread
    expect(r.sources).toContain('src/storage/sqlite/copy-worker.ts');
    expect(json(r.stdout).chambers).toBeGreaterThan(100);
  }, 120_000);

  it('continues a pull killed halfway and ends with an exact copy', async () => {
    const db = `${dir}/killed.db`;
    const { proxy, proc } = await slowPull('slow', db, 20);
    try {
      proc.kill('SIGKILL');
      expect((await proc).signal).toBe('SIGKILL');
      expect((await status(db)).pull_in_progress).toBe(true);

      proxy.delayMs = 0;
      const again = await cli(['sync', 'pull', '--from', 'slow', '--db', db, '--json']);
      expect(again.exitCode, again.stderr).toBe(0);
      expect((await status(db)).pull_in_progress).toBe(false);
      const copy = await serveCopy(db, 'resumed');
      const compared = await expectSameDirectory(await side(remote.baseUrl, REMOTE), await side(copy.baseUrl, LOCAL));
      expect(json(again.stdout)).toMatchObject(compared);
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it('says how to continue after Ctrl-C, and exits 130', async () => {
    const db = `${dir}/interrupted.db`;
    const { proxy, proc } = await slowPull('slow-int', db, 10);
    try {
      proc.kill('SIGINT');
      const r = await proc;
      expect(r.exitCode).toBe(130);
      expect(r.stderr).toBe('interrupted: run `chamberctl sync pull` again to continue; what was copied is kept');
      expect((await status(db)).pull_in_progress).toBe(true);
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it('refuses a database that holds other data, or a copy of another directory', async () => {
    const r = await cli(['sync', 'pull', '--from', 'remote', '--db', `${dir}/remote.db`]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: .*no `sync pull` made/);
    const other = await cli(['sync', 'pull', '--from', 'slow', '--db', `${dir}/copy.db`]);
    expect(other.exitCode).toBe(1);
    expect(other.stderr).toMatch(/is a copy of http/);
  });
});

describe('local changes and sync push', () => {
  it('sends offline creations with their references replaced by the remote ids', async () => {
    const db = `${dir}/copy.db`;
    await remote.stop(); // offline from here
    const hq = await create('offline', hqArgs('Offline HQ'));
    const sub = await create('offline', [
      'chambers', 'create', '--name', 'Offline Office', '--type', 'subsidiary', '--hq-id', hq.id, '--street', '2 Dock', '--city', 'Bruges', '--country', 'BE',
    ]);
    await create('offline', memberArgs(hq.id, 'hq.member@example.org'));
    await create('offline', memberArgs(sub.id, 'office.member@example.org'));
    const pending = (await status(db)).pending;
    expect(pending.map((c: { kind: string; state: string }) => [c.kind, c.state])).toEqual([
      ['chamber', 'pending'], ['chamber', 'pending'], ['member', 'pending'], ['member', 'pending'],
    ]);

    const dry = await cli(['sync', 'push', '--db', db, '--dry-run', '--json']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(json(dry.stdout).would_send).toHaveLength(4);

    await startRemote(); // online again, same address
    const r = await cli(['sync', 'push', '--db', db, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(json(r.stdout)).toMatchObject({ pushed: 4, skipped: 0, rejected: 0 });
    expect((await status(db)).pending).toEqual([]);

    const [remoteHq] = await remoteChambersNamed('Offline HQ');
    const [remoteSub] = await remoteChambersNamed('Offline Office');
    expect(remoteSub!.hq_id).toBe(remoteHq!.id);
    const s = await side(remote.baseUrl, REMOTE);
    const hqMembers = await walk(remote.baseUrl, s.v2, `/v2/chambers/${remoteHq!.id as string}/members`);
    expect(hqMembers.map((m) => m.email)).toEqual(['hq.member@example.org']);
    const subMembers = await walk(remote.baseUrl, s.v2, `/v2/chambers/${remoteSub!.id as string}/members`);
    expect(subMembers.map((m) => [m.email, m.chamber_id])).toEqual([['office.member@example.org', remoteSub!.id]]);
    // the copy now holds the remote's records under the remote's ids
    const copy = servers[0]!;
    const local = await side(copy.baseUrl, LOCAL);
    expect(await walk(copy.baseUrl, local.v2, `/v2/chambers/${remoteSub!.id as string}/members`)).toEqual(subMembers);
    // and a push with nothing pending sends nothing
    expect(json((await cli(['sync', 'push', '--db', db, '--json'])).stdout)).toMatchObject({ pushed: 0, skipped: 0, rejected: 0 });
  }, 120_000);

  it('never creates twice when push is killed between a POST and its bookkeeping', async () => {
    const db = `${dir}/copy.db`;
    const hq = await create('offline', hqArgs('Killed Push HQ'));
    await create('offline', memberArgs(hq.id, 'killed.push@example.org'));
    // killed right after the chamber's POST was answered, then right after the member's
    for (let run = 0; run < 2; run++) {
      const killed = await runCli(['sync', 'push', '--db', db, '--json'], {
        configDir: cfg,
        env: { CHAMBERCTL_TEST_KILL_AFTER_POSTS: '1' },
        timeout: 60_000,
      }).catch((e: unknown) => e);
      expect((killed as { exitCode: number }).exitCode).toBe(-1); // no exit code: killed
    }
    const r = await cli(['sync', 'push', '--db', db, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    // both were at the remote already: found there (the chamber), or answered again for the key (the member)
    expect(json(r.stdout)).toMatchObject({ pushed: 0, skipped: 1, rejected: 0 });
    expect((await status(db)).pending).toEqual([]);
    const found = await remoteChambersNamed('Killed Push HQ');
    expect(found).toHaveLength(1);
    const s = await side(remote.baseUrl, REMOTE);
    const members = await walk(remote.baseUrl, s.v2, `/v2/chambers/${found[0]!.id as string}/members`);
    expect(members.map((m) => m.email)).toEqual(['killed.push@example.org']);
  }, 120_000);

  it('keeps a change the remote rejects, pushes the others, and exits 5', async () => {
    const db = `${dir}/copy.db`;
    // the remote comes back with another database: the chambers of the copy are gone there
    await remote.stop();
    await startRemote(`${dir}/remote-replaced.db`, 'none');
    const s = await side(remote.baseUrl, REMOTE);
    const [pulledChamber] = await walk(servers[0]!.baseUrl, (await side(servers[0]!.baseUrl, LOCAL)).v2, '/v2/chambers?sort=name');
    const member = await create('offline', memberArgs(pulledChamber!.id as string, 'orphan@example.org'));
    await create('offline', hqArgs('Survivor HQ'));
    const r = await cli(['sync', 'push', '--db', db, '--json']);
    expect(r.exitCode).toBe(5);
    expect(json(r.stdout)).toMatchObject({ pushed: 1, rejected: 1 });
    expect(r.stderr).toMatch(/rejected member/);
    const pending = (await status(db)).pending;
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ kind: 'member', state: 'rejected', record_id: member.id });
    expect(pending[0].error).toMatch(/not found/);
    expect((await walk(remote.baseUrl, s.v2, '/v2/chambers')).map((c) => c.name)).toContain('Survivor HQ');

    // discard drops the change and the record it made
    const d = await cli(['sync', 'discard', pending[0].id, '--db', db, '--yes']);
    expect(d.exitCode, d.stderr).toBe(0);
    expect((await status(db)).pending).toEqual([]);
    expect((await cli(['sync', 'discard', pending[0].id, '--db', db])).exitCode).toBe(4);
  }, 120_000);

  it('takes a member found under its address as already there only when it is the same person', async () => {
    const db = `${dir}/copy.db`;
    const s = await side(remote.baseUrl, REMOTE);
    const [chamber] = await remoteChambersNamed('Survivor HQ'); // at both ends since the last push
    const chamberId = chamber!.id as string;
    const atRemote = async (body: Record<string, unknown>) => {
      const res = await fetch(`${remote.baseUrl}/v2/chambers/${chamberId}/members`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.v2}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(201);
      return (await res.json()) as Record<string, unknown>;
    };
    // the same address, meanwhile at the remote: another person, and the same person again
    const clash = await create('offline', ['members', 'add', chamberId, '--name', 'Clash Offline', '--email', 'clash@example.org', '--membership-type', 'standard']);
    const remoteClash = await atRemote({ name: 'Clash Remote', email: 'CLASH@example.org', membership_type: 'corporate' });
    const same = await create('offline', ['members', 'add', chamberId, '--name', 'Same Person', '--email', 'same@example.org', '--phone', '+32 9 123', '--membership-type', 'premium']);
    const remoteSame = await atRemote({ name: 'Same Person', email: 'Same@Example.org', phone: '+32 9 123', membership_type: 'premium' });

    const r = await cli(['sync', 'push', '--db', db, '--json']);
    expect(r.exitCode, r.stderr).toBe(5);
    expect(json(r.stdout)).toMatchObject({ pushed: 0, skipped: 1, rejected: 1 });
    expect(r.stderr).toContain(`rejected member "Clash Offline" <clash@example.org> ${clash.id as string}`);
    const pending = (await status(db)).pending;
    expect(pending).toEqual([expect.objectContaining({ kind: 'member', state: 'rejected', record_id: clash.id })]);
    expect(pending[0].error).toBe(
      `conflict: the remote's member ${remoteClash.id as string} has this e-mail address, with another name "Clash Remote" (here "Clash Offline"), membership_type "corporate" (here "standard")`,
    );
    // the local record is kept as it was; the same person became the remote's record
    const copy = servers[0]!;
    const local = await side(copy.baseUrl, LOCAL);
    const kept = await fetch(`${copy.baseUrl}/v2/chambers/${chamberId}/members`, { headers: { authorization: `Bearer ${local.v2}` } });
    const members = ((await kept.json()) as { data: Record<string, unknown>[] }).data;
    expect(members).toContainEqual(expect.objectContaining({ id: clash.id, name: 'Clash Offline', membership_type: 'standard' }));
    expect(members.map((m) => m.id)).toContain(remoteSame.id);
    expect(members.map((m) => m.id)).not.toContain(same.id);
  }, 120_000);

  it('names what each change made, and discards one by its record id', async () => {
    const db = `${dir}/copy.db`;
    const [chamber] = await remoteChambersNamed('Survivor HQ');
    const extra = await create('offline', ['members', 'add', chamber!.id as string, '--name', 'Extra Person', '--email', 'extra@example.org', '--membership-type', 'standard']);
    const text = await cli(['sync', 'status', '--db', db]);
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`member "Extra Person" <extra@example\\.org> \\(${extra.id as string} in ${chamber!.id as string}\\)  pending`));
    expect((await status(db)).pending).toContainEqual(expect.objectContaining({ record_id: extra.id, label: 'member "Extra Person" <extra@example.org>' }));
    // --jq on sync status: what the guide's `sync discard "$(... --jq '.pending[0].id')"` reads
    const ids = await cli(['sync', 'status', '--db', db, '--jq', '.pending[] | .record_id']);
    expect(ids.exitCode, ids.stderr).toBe(0);
    expect(ids.stdout.split('\n')).toContain(extra.id);
    const dry = await cli(['sync', 'push', '--db', db, '--dry-run']);
    expect(dry.stderr).toContain(`would send member "Extra Person" <extra@example.org> ${extra.id as string}`);
    // by the record's id; no terminal: --yes is needed (issue 43), and without it nothing is discarded
    const refused = await cli(['sync', 'discard', extra.id as string, '--db', db]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/^error: sync discard deletes the local member "Extra Person" .* for good: pass --yes to do it without a terminal to confirm on\n$/);
    const d = await cli(['sync', 'discard', extra.id as string, '--db', db, '--yes']);
    expect(d.exitCode, d.stderr).toBe(0);
    expect(d.stdout).toMatch(new RegExp(`^Discarded chg_\\w+: the local member "Extra Person" <extra@example\\.org> \\(${extra.id as string}\\) is gone\n$`));
    expect((await status(db)).pending.map((c: { record_id: string }) => c.record_id)).not.toContain(extra.id);
  }, 120_000);

  it('on a terminal, sync discard and snapshot import --replace ask before dropping a change; no means nothing happens', async () => {
    const db = `${dir}/copy.db`;
    const [chamber] = await remoteChambersNamed('Survivor HQ');
    const asked = await create('offline', ['members', 'add', chamber!.id as string, '--name', 'Asked Person', '--email', 'asked@example.org', '--membership-type', 'standard']);
    const no = await runOnPty(['sync', 'discard', asked.id as string, '--db', db], { configDir: cfg, steps: [{ when: /Discard the local member "Asked Person"/, send: `n${KEY.enter}` }] });
    expect(no.exitCode, no.output).toBe(1);
    expect(no.output).toContain('nothing was discarded');
    expect((await status(db)).pending.map((c: { record_id: string }) => c.record_id)).toContain(asked.id);
    const file = `${dir}/asked.snapshot`;
    expect((await cli(['snapshot', 'export', file, '--db', db])).exitCode).toBe(0);
    // the copy's serve still runs: --replace is refused until it stops (issue 43)
    const served = await cli(['snapshot', 'import', file, '--replace', '--yes', '--db', db]);
    expect(served.exitCode).toBe(1);
    expect(served.stderr).toMatch(/^error: chamberctl serve \(pid \d+, http:\S+\) has \S+copy\.db open: stop it first/);
    await Promise.all(servers.splice(0).map((s) => s.stop()));
    const keep = await runOnPty(['snapshot', 'import', file, '--replace', '--db', db], { configDir: cfg, steps: [{ when: /not pushed yet .*would be lost/s, send: `n${KEY.enter}` }] });
    expect(keep.exitCode, keep.output).toBe(1);
    expect(keep.output).toContain('nothing was imported');
    expect((await status(db)).pending.map((c: { record_id: string }) => c.record_id)).toContain(asked.id);
    const yes = await runOnPty(['sync', 'discard', asked.id as string, '--db', db], { configDir: cfg, steps: [{ when: /Discard the local member "Asked Person"/, send: `y${KEY.enter}` }] });
    expect(yes.exitCode, yes.output).toBe(0);
    expect((await status(db)).pending.map((c: { record_id: string }) => c.record_id)).not.toContain(asked.id);
  }, 120_000);

  it('a copy that is not there is exit 4 for the commands that read one, and is not created', async () => {
    for (const args of [['sync', 'status'], ['sync', 'push', '--dry-run'], ['sync', 'discard', 'chg_nothing']]) {
      const missing = `${dir}/typo-${args[1]}.db`;
      const r = await cli([...args, '--db', missing]);
      expect(r.exitCode, args.join(' ')).toBe(4);
      expect(r.stderr).toBe(`error: no database at ${missing}\n`);
      expect(existsSync(missing)).toBe(false);
    }
  });

  it('snapshot import --replace does not silently discard changes not pushed yet', async () => {
    const db = `${dir}/copy.db`; // holds the rejected change of the conflict above
    const pending = (await status(db)).pending.length;
    expect(pending).toBeGreaterThan(0);
    const file = `${dir}/copy.snapshot`;
    expect((await cli(['snapshot', 'export', file, '--db', db])).exitCode).toBe(0);
    const refused = await cli(['snapshot', 'import', file, '--replace', '--db', db]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toBe(
      `error: --replace would delete no record the snapshot does not hold (those in both are overwritten), and ${pending} local change${pending === 1 ? '' : 's'} not pushed yet (see \`chamberctl sync status\`) from ${db}: pass --yes to replace it without a terminal to confirm on\n`,
    );
    expect((await status(db)).pending).toHaveLength(pending);
    const replaced = await cli(['snapshot', 'import', file, '--replace', '--yes', '--db', db]);
    expect(replaced.exitCode, replaced.stderr).toBe(0);
    expect((await status(db)).pending).toEqual([]);
  }, 120_000);
});
