import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chamber, Event } from '../../src/contract/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { loggedIn, versionsOf, type LoggedIn, requestLog } from '../commands/logged-in.js';

let server: TestServer;
let cli: LoggedIn;
let chamber: Chamber;
let all: Event[];
const log = requestLog();

beforeAll(async () => {
  server = await startTestServer({ log: log.add });
  cli = await loggedIn(server);
  const hqs = await cli.json<Chamber[]>(['chambers', 'list', '--type', 'hq', '--per-page', '5']);
  for (const c of hqs) {
    const events = await cli.json<Event[]>(['events', 'list', c.id, '--all']);
    if (events.length > 20) {
      chamber = c;
      all = events;
      break;
    }
  }
  expect(chamber).toBeDefined();
});
afterAll(async () => {
  await cli?.cleanup();
  await server?.close();
});

describe('events list', () => {
  it('--json lists the events of a chamber via v2, paged', async () => {
    const start = log.lines.length;
    const page = await cli.json<Event[]>(['events', 'list', chamber.id]);
    expect(page).toEqual(all.slice(0, 20));
    expect(Object.keys(page[0]!).sort()).toEqual(['chamber_id', 'ends_at', 'id', 'location', 'starts_at', 'status', 'title']);
    expect(versionsOf(log.lines.slice(start), /\/events$/)).toEqual(['v2']);
    expect(await cli.json(['events', 'list', chamber.id, '--per-page', '5', '--page', '2'])).toEqual(all.slice(5, 10));
  });

  it('--status filters', async () => {
    const status = all[0]!.status;
    const filtered = await cli.json<Event[]>(['events', 'list', chamber.id, '--status', status, '--all']);
    expect(filtered).toEqual(all.filter((e) => e.status === status));
  });

  it('--from/--to keep the events overlapping the window (a bare --to date is the whole day)', async () => {
    const sorted = [...all].sort((a, b) => a.starts_at.localeCompare(b.starts_at));
    const from = sorted[5]!.starts_at.slice(0, 10);
    const to = sorted[15]!.starts_at.slice(0, 10);
    const window = await cli.json<Event[]>(['events', 'list', chamber.id, '--from', from, '--to', to, '--all']);
    const expected = all.filter((e) => e.ends_at >= `${from}T00:00:00.000Z` && e.starts_at <= `${to}T23:59:59.999Z`);
    expect(window.map((e) => e.id).sort()).toEqual(expected.map((e) => e.id).sort());
    expect(window.length).toBeGreaterThan(0);
    expect(window.length).toBeLessThan(all.length);
  });

  it('piped: TSV rows id, title, status, starts_at, ends_at, location', async () => {
    const r = await cli.run(['events', 'list', chamber.id, '--per-page', '2']);
    const e = all[0]!;
    expect(r.stdout.split('\n')[0]).toBe([e.id, e.title, e.status, e.starts_at, e.ends_at, e.location ?? ''].join('\t'));
  });

  it.each([
    [['--from', '03/01/2026'], '--from must be an ISO 8601 date'],
    [['--to', '2026-13-01'], '--to must be an ISO 8601 date'],
    [['--from', '2026-05-01', '--to', '2026-04-01'], 'must not be after --to'],
    [['--status', 'active'], '--status must be one of: upcoming, past, canceled, not "active"'],
  ])('%j is exit 2', async (args, message) => {
    const r = await cli.run(['events', 'list', chamber.id, ...args]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('an unknown chamber is exit 4', async () => {
    expect((await cli.run(['events', 'list', 'ch_nope'])).exitCode).toBe(4);
  });

  it('a profile pinned to v1 cannot list events (exit 2, naming the way out); --api-version v2 can', async () => {
    const v1 = await loggedIn(server, { apiVersion: 'v1' });
    try {
      const r = await v1.run(['events', 'list', chamber.id]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toBe(
        'error: events list needs API v2, but profile "default" is pinned to v1; use --api-version v2, or unpin it with `chamberctl config set api-version auto`\n',
      );
      const ok = await v1.run(['events', 'list', chamber.id, '--api-version', 'v2', '--json']);
      expect(ok.exitCode).toBe(0);
      expect(JSON.parse(ok.stdout)).toEqual(all.slice(0, 20));
    } finally {
      await v1.cleanup();
    }
  });
});
