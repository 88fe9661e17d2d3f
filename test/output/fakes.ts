// Test doubles for the renderers: writable streams that collect text and may pretend to be
// a terminal, and a small in-memory DirectoryApi for the paging and routing logic (the
// end-to-end tests use the real server).
import { Writable } from 'node:stream';
import type { CliContext, OutStream } from '../../src/core/context.js';
import type { DirectoryApi, Session, WireQuery } from '../../src/client/types.js';
import type { ApiVersion, Chamber, Event, ListPage, Member } from '../../src/contract/index.js';
import { createOutput, type Output } from '../../src/output/output.js';

export const ESC = '\u001b[';

export interface Collector extends Writable {
  isTTY?: boolean;
  columns?: number;
  getColorDepth?: () => number;
  text(): string;
  /** Each write() call's text, in order. */
  chunks: string[];
}

/** A stream that collects what is written; `tty` makes it look like a terminal `columns` wide. */
export function collector(opts: { tty?: boolean; columns?: number; colorDepth?: number; highWaterMark?: number; slow?: boolean } = {}): Collector {
  const chunks: string[] = [];
  const stream = new Writable({
    highWaterMark: opts.highWaterMark ?? 16 * 1024,
    decodeStrings: false,
    write(chunk: string | Buffer, _enc, done) {
      chunks.push(String(chunk));
      if (opts.slow) setImmediate(done);
      else done();
    },
  }) as Collector;
  stream.chunks = chunks;
  stream.text = () => chunks.join('');
  if (opts.tty) {
    stream.isTTY = true;
    stream.columns = opts.columns ?? 80;
    stream.getColorDepth = () => opts.colorDepth ?? 8;
    // the tty.WriteStream methods ora uses to redraw its line
    const t = stream as unknown as Record<string, unknown>;
    t.cursorTo = (x: number, cb?: () => void) => (stream.write(`${ESC}${x + 1}G`), cb?.(), true);
    t.moveCursor = (dx: number, dy: number, cb?: () => void) => (stream.write(dy < 0 ? `${ESC}${-dy}A` : ''), cb?.(), true);
    t.clearLine = (_dir: number, cb?: () => void) => (stream.write(`${ESC}2K`), cb?.(), true);
  }
  return stream;
}

export interface TestIo {
  stdout: Collector;
  stderr: Collector;
  ctx: Pick<CliContext, 'stdout' | 'stderr' | 'env'>;
}

export function io(opts: { tty?: boolean; errTty?: boolean; columns?: number; env?: Record<string, string> } = {}): TestIo {
  const stdout = collector({ tty: opts.tty, columns: opts.columns });
  const stderr = collector({ tty: opts.errTty ?? opts.tty, columns: opts.columns });
  return { stdout, stderr, ctx: { stdout: stdout as OutStream, stderr: stderr as OutStream, env: opts.env ?? {} } };
}

export async function outputFor(t: TestIo, globals: { json?: boolean; color?: boolean } = {}): Promise<Output> {
  return createOutput({ color: true, ...globals }, t.ctx);
}


// ------------------------------------------------------------------ sample resources

export function chamber(i: number, over: Partial<Chamber> = {}): Chamber {
  return {
    id: `ch_${String(i).padStart(16, '0')}`,
    name: `Chamber number ${i}`,
    type: i % 2 ? 'subsidiary' : 'hq',
    hq_id: i % 2 ? 'ch_0000000000000000' : null,
    status: (['active', 'inactive', 'pending'] as const)[i % 3]!,
    address: { street: `${i} Main Street`, city: 'Berlin', postal_code: '10115', country: 'DE' },
    created_at: new Date(Date.UTC(2026, 0, 1, 9, 30) + i * 86_400_000).toISOString(),
    ...over,
  };
}

export function member(i: number, over: Partial<Member> = {}): Member {
  return {
    id: `mb_${String(i).padStart(16, '0')}`,
    chamber_id: 'ch_0000000000000000',
    name: `Person ${i}`,
    email: `person${i}@example.org`,
    phone: i % 2 ? null : '+49 30 123456',
    membership_type: 'standard',
    status: 'active',
    joined_at: '2026-02-03T10:15:00.000Z',
    ...over,
  };
}

export function event(i: number, over: Partial<Event> = {}): Event {
  return {
    id: `ev_${String(i).padStart(16, '0')}`,
    chamber_id: 'ch_0000000000000000',
    title: `Event ${i}`,
    status: 'upcoming',
    starts_at: '2026-03-05T18:00:00.000Z',
    ends_at: '2026-03-05T20:00:00.000Z',
    location: 'Town Hall',
    ...over,
  };
}

/** One page of `items` as the server would cut it (per_page clamped to 100). */
export function pageOf<T>(items: readonly T[], query: WireQuery): ListPage<T> {
  const page = Number(query.page ?? 1);
  const perPage = Math.min(Number(query.per_page ?? 20), 100);
  return { data: items.slice((page - 1) * perPage, page * perPage), meta: { current_page: page, per_page: perPage, total: items.length } };
}

export interface Call {
  method: keyof DirectoryApi;
  version: ApiVersion;
  args: unknown[];
}

/** An in-memory DirectoryApi over fixed lists, recording every call. */
export function fakeSession(
  data: { chambers?: Chamber[]; members?: Member[]; events?: Event[] } = {},
  settings: { apiVersion?: 'auto' | 'v1' | 'v2'; profileName?: string } = {},
): Session & { calls: Call[]; closed: boolean } {
  const calls: Call[] = [];
  const chambers = data.chambers ?? [];
  const api: DirectoryApi = {
    async listChambers(version, query) {
      calls.push({ method: 'listChambers', version, args: [query] });
      return pageOf(chambers, query);
    },
    async getChamber(version, id, query) {
      calls.push({ method: 'getChamber', version, args: [id, query] });
      const found = chambers.find((c) => c.id === id);
      if (!found) throw new Error(`no chamber ${id}`);
      return found;
    },
    async createChamber(body) {
      calls.push({ method: 'createChamber', version: 'v2', args: [body] });
      return chamber(999, { name: body.name });
    },
    async listMembers(version, chamberId, query) {
      calls.push({ method: 'listMembers', version, args: [chamberId, query] });
      return pageOf(data.members ?? [], query);
    },
    async getMember(chamberId, memberId) {
      calls.push({ method: 'getMember', version: 'v2', args: [chamberId, memberId] });
      const found = (data.members ?? []).find((m) => m.id === memberId && m.chamber_id === chamberId);
      if (!found) throw new Error(`no member ${memberId}`);
      return found;
    },
    async addMember(chamberId, body) {
      calls.push({ method: 'addMember', version: 'v2', args: [chamberId, body] });
      return member(999, { name: body.name, email: body.email });
    },
    async listEvents(chamberId, query) {
      calls.push({ method: 'listEvents', version: 'v2', args: [chamberId, query] });
      return pageOf(data.events ?? [], query);
    },
  };
  const session = {
    api,
    apiVersion: settings.apiVersion ?? 'auto',
    profileName: settings.profileName ?? 'default',
    async requireWrite() {
      // a fake client may write
    },
    calls,
    closed: false,
    async close() {
      session.closed = true;
    },
  };
  return session;
}
