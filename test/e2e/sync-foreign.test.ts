// `sync` against a server that follows the interface document but is not ours
// (test/helpers/foreign-server.ts): numeric ids, fields this project does not know, plain
// 200 on POST without Location, 400 for invalid data, and no Idempotency-Key support.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir, runCli } from '../helpers/cli.js';
import { tokenFor, walk } from '../helpers/directory-walk.js';
import { startForeignServer, type ForeignServer } from '../helpers/foreign-server.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

const LOCAL = { id: 'local-client', secret: 'LocalSecret0123456789' };
let dir: string;
let cfg: string;
let foreign: ForeignServer;
let v1only: ForeignServer;
let copy: ServeProcess;

const cli = (args: string[], opts: { input?: string; env?: Record<string, string> } = {}) =>
  runCli(args, { configDir: cfg, timeout: 60_000, ...opts });
const json = (text: string) => JSON.parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function login(profile: string, baseUrl: string, id: string, secret: string, extra: string[] = []) {
  const r = await cli(['login', '--profile', profile, '--base-url', baseUrl, '--client-id', id, '--client-secret-stdin', ...extra], { input: secret });
  expect(r.exitCode, r.stderr).toBe(0);
}

beforeAll(async () => {
  dir = await makeTempDir('chamberctl-sync-foreign-');
  cfg = `${dir}/cfg`;
  foreign = await startForeignServer({ hqs: 3, subsidiariesPerHq: 2, membersPerChamber: 3, eventsPerChamber: 2, postStatus: 200 });
  v1only = await startForeignServer({ v1Only: true });
  await login('foreign', foreign.baseUrl, foreign.clientId, foreign.clientSecret);
  await login('legacy', v1only.baseUrl, v1only.clientId, v1only.clientSecret, ['--api-version', 'v1']);
}, 60_000);
afterAll(async () => {
  await copy?.stop();
  await Promise.all([foreign?.close(), v1only?.close()]);
  await removeTempDir(dir);
});

/** An event as a server that judges statuses now (docs/server-behaviour.md#statuses) shows it. */
const aged = (e: Record<string, unknown>) => ({
  ...e,
  status: e.status === 'canceled' ? 'canceled' : Date.parse(e.ends_at as string) >= Date.now() ? 'upcoming' : 'past',
});

describe('sync with a foreign server', () => {
  it('keeps every field the remote sent: the copy serves the records as the remote did', async () => {
    const r = await cli(['sync', 'pull', '--from', 'foreign', '--db', `${dir}/copy.db`, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(json(r.stdout)).toMatchObject({ chambers: 9, members: 27, events: 18 });
    copy = await startServeProcess(
      ['--port', '0', '--db', `${dir}/copy.db`, '--seed', 'none', '--client-id', LOCAL.id, '--client-secret', LOCAL.secret, '--quiet'],
      { CHAMBERCTL_CONFIG_DIR: `${dir}/cfg-copy` },
    );
    await login('offline', copy.baseUrl, LOCAL.id, LOCAL.secret);
    const token = await tokenFor(copy.baseUrl, LOCAL.id, LOCAL.secret);
    const chambers = await walk(copy.baseUrl, token, '/v2/chambers');
    expect(chambers).toEqual(foreign.chambers); // extra fields (tags, meta, website: null) and all
    for (const c of foreign.chambers) {
      const id = c.id as string;
      expect(await walk(copy.baseUrl, token, `/v2/chambers/${id}/members`)).toEqual(foreign.membersOf(id));
      const remoteEvents = json((await fetch(`${foreign.baseUrl}/v2/chambers/${id}/events?per_page=100`, {
        headers: { authorization: `Bearer ${await tokenFor(foreign.baseUrl, foreign.clientId, foreign.clientSecret)}` },
      }).then((x) => x.text()))).data as Record<string, unknown>[];
      expect(await walk(copy.baseUrl, token, `/v2/chambers/${id}/events`)).toEqual(remoteEvents.map(aged));
    }
    // the CLI's own output of a copied chamber carries the extra fields too
    const got = await cli(['--profile', 'offline', 'chambers', 'get', foreign.chambers[0]!.id as string, '--json']);
    expect(json(got.stdout)).toEqual(foreign.chambers[0]);
  });

  it('pushes once each to a remote that ignores Idempotency-Key, even when killed after each POST', async () => {
    const db = `${dir}/copy.db`;
    const existing = foreign.chambers[0]!.id as string;
    const hq = json((await cli(['--profile', 'offline', '--json', 'chambers', 'create', '--name', 'Foreign Offline HQ', '--type', 'hq', '--street', '9 Quay', '--city', 'Ghent', '--country', 'BE'])).stdout);
    for (const [chamber, email] of [[existing, 'new.one@example.org'], [hq.id as string, 'hq.one@example.org']] as const) {
      const r = await cli(['--profile', 'offline', 'members', 'add', chamber, '--name', 'New One', '--email', email, '--membership-type', 'premium']);
      expect(r.exitCode, r.stderr).toBe(0);
    }
    const postsBefore = foreign.stats.posts;
    for (let run = 0; run < 3; run++) {
      const killed = await cli(['sync', 'push', '--db', db], { env: { CHAMBERCTL_TEST_KILL_AFTER_POSTS: '1' } });
      expect(killed.exitCode).toBe(-1);
    }
    const r = await cli(['sync', 'push', '--db', db, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    // run 1 sent the chamber; run 2 found it there and sent the first member; run 3 sent that
    // member again (409: it is there) and was killed; this run finds it, and sends the last one
    expect(json(r.stdout)).toEqual({ pushed: 1, skipped: 1, rejected: 0, held: 0 });
    expect(foreign.stats.posts - postsBefore).toBe(1 + 3 + 1);
    const made = foreign.chambers.filter((c) => c.name === 'Foreign Offline HQ');
    expect(made).toHaveLength(1);
    expect(foreign.membersOf(existing).filter((m) => m.email === 'new.one@example.org')).toHaveLength(1);
    expect(foreign.membersOf(made[0]!.id as string).map((m) => m.email)).toEqual(['hq.one@example.org']);
    const st = json((await cli(['sync', 'status', '--db', db, '--json'])).stdout);
    expect(st.pending).toEqual([]);
    // the copy holds the remote's records, with their extra fields, under the remote's ids
    const token = await tokenFor(copy.baseUrl, LOCAL.id, LOCAL.secret);
    expect(await walk(copy.baseUrl, token, `/v2/chambers/${made[0]!.id as string}/members`)).toEqual(foreign.membersOf(made[0]!.id as string));
  });

  it('a later pull refreshes the copy: changed records updated, gone ones removed, pending local changes kept', async () => {
    const db = `${dir}/copy.db`;
    const token = await tokenFor(copy.baseUrl, LOCAL.id, LOCAL.secret);
    // offline: a member added to a chamber that the remote is about to lose
    const doomed = foreign.chambers.find((c) => c.type === 'subsidiary')!;
    const local = json((await cli(['--profile', 'offline', '--json', 'members', 'add', doomed.id as string, '--name', 'Kept', '--email', 'kept@example.org', '--membership-type', 'standard'])).stdout);
    // meanwhile at the remote: a chamber renamed, a member gone, a chamber gone with its members
    const renamed = foreign.chambers[0]!;
    renamed.name = 'Renamed At The Remote';
    const members = foreign.membersOf(renamed.id as string);
    const goneMember = members.splice(1, 1)[0]!;
    const other = foreign.chambers.find((c) => c.type === 'subsidiary' && c.id !== doomed.id)!;
    foreign.chambers.splice(foreign.chambers.indexOf(other), 1);
    foreign.chambers.splice(foreign.chambers.indexOf(doomed), 1);

    const r = await cli(['sync', 'pull', '--db', db, '--from', 'foreign', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`warning: chamber ${doomed.id as string} is gone at the remote but kept`));
    const chambers = await walk(copy.baseUrl, token, '/v2/chambers');
    expect(chambers.find((c) => c.id === renamed.id)!.name).toBe('Renamed At The Remote');
    expect(chambers.map((c) => c.id)).not.toContain(other.id);
    expect(chambers.map((c) => c.id)).toContain(doomed.id); // kept for the pending member
    expect((await walk(copy.baseUrl, token, `/v2/chambers/${renamed.id as string}/members`)).map((m) => m.id)).not.toContain(goneMember.id);
    expect((await walk(copy.baseUrl, token, `/v2/chambers/${doomed.id as string}/members`)).map((m) => m.id)).toContain(local.id);
    const st = json((await cli(['sync', 'status', '--db', db, '--json'])).stdout);
    expect(st.pending.map((c: { record_id: string }) => c.record_id)).toEqual([local.id]);

    // the push reports it: the remote no longer has that chamber
    const pushed = await cli(['sync', 'push', '--db', db, '--json']);
    expect(pushed.exitCode).toBe(5);
    expect(json(pushed.stdout)).toMatchObject({ rejected: 1 });
  });

  it('copies chambers and members from a v1-only remote, and says that events are not copied', async () => {
    const r = await cli(['sync', 'pull', '--from', 'legacy', '--db', `${dir}/legacy.db`, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(json(r.stdout)).toMatchObject({ chambers: 9, members: 27, events: 0, events_copied: false });
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^warning: .*v1.*events are not copied/)]);
  });
});
