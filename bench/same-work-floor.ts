// The same-work floor of bench:server: the lists and POST member of `serve` with only the work
// no server could skip. A bare Fastify app (no logger, no hooks) in a process of its own, on
// the database `serve` of the bench uses, doing that database's work statement for statement
// (bench/lib/floor-sqlite.ts, bench/lib/floor-postgres.ts) and answering the same bytes.
// What it does not do is what bench:server's ratio to it measures: the token check, the zod
// check of the query and the body, the request id and the gate, the deadline, the request
// log, the store's wrappers.
//
//   node dist/bench/same-work-floor.js --db FILE|postgres://… [--pool-size N]
//
// Prints `port=N` once it listens on 127.0.0.1.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyReply } from 'fastify';
import { newId } from '../src/storage/ids.js';
import type { FloorPage, FloorStore, ListQuery } from './lib/floor-store.js';

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const db = option('--db');
if (!db) throw new Error('usage: same-work-floor.js --db FILE|postgres://… [--pool-size N]');
/** The client the bench's token names: the audit rows carry it, as serve's do. */
const CLIENT_ID = 'bench';

const store: FloorStore = /^postgres(ql)?:\/\//.test(db)
  ? new (await import('./lib/floor-postgres.js')).PostgresFloor(db, Number(option('--pool-size') ?? 10))
  : new (await import('./lib/floor-sqlite.js')).SqliteFloor(db);

const SORTS: Record<string, Record<string, { field: string; desc: boolean }>> = {
  chambers: { name: { field: 'name', desc: false }, '-name': { field: 'name', desc: true }, created_at: { field: 'created_at', desc: false }, '-created_at': { field: 'created_at', desc: true } },
  members: { name: { field: 'name', desc: false }, '-name': { field: 'name', desc: true }, joined_at: { field: 'joined_at', desc: false }, '-joined_at': { field: 'joined_at', desc: true } },
};

/** A bare date means its whole day, as the contract's dateParam reads it. */
const instant = (s: string | undefined, edge: 'start' | 'end') =>
  s === undefined ? undefined : s.length === 10 ? `${s}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}Z` : new Date(s).toISOString();

/** The query as the lists use it; only the sort is checked (it becomes SQL), and the numbers. */
function listQuery(q: Record<string, string | undefined>, sorts?: Record<string, { field: string; desc: boolean }>): ListQuery | undefined {
  const page = Number(q.page ?? 1);
  const perPage = Math.min(Number(q.per_page ?? 20), 100);
  const sort = q.sort === undefined ? undefined : sorts?.[q.sort];
  if (!Number.isSafeInteger(page) || page < 1 || !Number.isSafeInteger(perPage) || perPage < 1 || (q.sort !== undefined && !sort)) return undefined;
  return {
    page,
    perPage,
    type: q['filter[type]'],
    status: q['filter[status]'],
    sort,
    from: instant(q['filter[date_from]'], 'start'),
    to: instant(q['filter[date_to]'], 'end'),
  };
}

/** The list envelope as serve's sendPage writes it. */
const sendPage = (reply: FastifyReply, page: FloorPage, q: ListQuery) =>
  reply
    .type('application/json; charset=utf-8')
    .send(`{"data":[${page.docs.join(',')}],"meta":{"current_page":${q.page},"total":${page.total},"per_page":${q.perPage}}}`);

const app = Fastify({ logger: false });
type Params = { Params: { id: string }; Querystring: Record<string, string | undefined> };

app.get<Params>('/v2/chambers', async (request, reply) => {
  const q = listQuery(request.query, SORTS.chambers);
  if (!q) return reply.code(400).send({ error: 'invalid query' });
  return sendPage(reply, await store.chambers(q), q);
});

/** Members and events: an empty list may be a chamber that does not exist (looked up then only). */
for (const list of ['members', 'events'] as const) {
  app.get<Params>(`/v2/chambers/:id/${list}`, async (request, reply) => {
    const q = listQuery(request.query, list === 'members' ? SORTS.members : undefined);
    if (!q) return reply.code(400).send({ error: 'invalid query' });
    const page = await store[list](request.params.id, q);
    if (page.total === 0 && !(await store.chamberExists(request.params.id))) return reply.code(404).send({ error: 'no such chamber' });
    return sendPage(reply, page, q);
  });
}

app.post<Params & { Body: { name?: unknown; email?: unknown; phone?: unknown; membership_type?: unknown } }>('/v2/chambers/:id/members', async (request, reply) => {
  const b = request.body;
  if (typeof b?.name !== 'string' || typeof b.email !== 'string' || typeof b.membership_type !== 'string') return reply.code(422).send({ error: 'invalid body' });
  const chamberId = request.params.id;
  const member = {
    id: newId('mb'),
    chamber_id: chamberId,
    name: b.name,
    email: b.email,
    phone: typeof b.phone === 'string' ? b.phone : null,
    membership_type: b.membership_type,
    status: 'active' as const,
    joined_at: new Date().toISOString(),
  };
  const added = await store.addMember({ ...member, audit: { clientId: CLIENT_ID, requestId: randomUUID(), address: request.ip } });
  if (added !== 'added') return reply.code(added === 'no-chamber' ? 404 : 409).send({ error: added });
  return reply
    .code(201)
    .header('Location', `/v2/chambers/${encodeURIComponent(chamberId)}/members/${encodeURIComponent(member.id)}`)
    .send(member);
});

await app.listen({ port: 0, host: '127.0.0.1' });
// a clean exit on a signal, so that node --cpu-prof writes its profile (bench:layers)
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => process.exit(0));
const address = app.server.address();
console.log(`port=${typeof address === 'object' && address ? address.port : 0}`);
