// An independent implementation of the interface document, written on node:http with none
// of `serve`'s code, that differs from `serve` wherever the document says "not shown":
// - ids are numeric strings ("1001"), records carry fields this project does not know;
// - v2 POSTs answer 200 with no Location header, and ignore Idempotency-Key;
// - validation failures are 400 with `fields` (not 422); a duplicate e-mail is 409;
// - tokens can be revoked before their hour is up, on demand or after the Nth stored row;
// - 503 or 429 with Retry-After can be injected, a number of times or at a seeded rate.
// The client's tests run against it as well as against `serve` (test/e2e/any-server.test.ts).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Prng } from '../../src/storage/seed/prng.js';

export const FOREIGN_CLIENT_ID = 'foreign-client';
export const FOREIGN_CLIENT_SECRET = 'ForeignSecret0123456789';

type Json = Record<string, unknown>;

export interface ForeignServerOptions {
  /** Chambers to start with: `hqs` HQs, each with `subsidiariesPerHq` subsidiaries (default 3 and 2). */
  hqs?: number;
  subsidiariesPerHq?: number;
  /** Members of each chamber at the start (default 3), and events of each chamber (default 2). */
  membersPerChamber?: number;
  eventsPerChamber?: number;
  /** Status of a successful v2 POST (default 200: the document does not fix it). */
  postStatus?: 200 | 201;
  /** Revoke every token when the store reaches these numbers of members created through POST. */
  revokeAfterCreated?: number[];
  /** Share of requests (not token requests) answered 503 with Retry-After: 0, from a seeded generator. */
  failRate?: number;
  seed?: number;
  /** Only v1 (a server that has not deployed the beta). */
  v1Only?: boolean;
}

export interface ForeignServer {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Every token issued so far stops working (a server revoking early). */
  revokeAll(): void;
  /** Every token issued from now on is refused at once (a server that is misconfigured). */
  refuseNewTokens(refuse: boolean): void;
  /** The next `n` resource requests get `status` with `Retry-After: retryAfter` and do nothing. */
  failNext(n: number, status?: 503 | 429, retryAfter?: string): void;
  readonly chambers: Json[];
  membersOf(chamberId: string): Json[];
  readonly stats: { tokenRequests: number; requests: number; injected: number; posts: number; revocations: number };
  close(): Promise<void>;
}

const EXTRA = { source_system: 'foreign', tags: ['imported'], meta: { rev: 1 } };

export async function startForeignServer(opts: ForeignServerOptions = {}): Promise<ForeignServer> {
  let nextId = 1000;
  const id = () => String(++nextId);
  const clock = Date.parse('2024-03-01T09:00:00Z');
  let tick = 0;
  const stamp = () => new Date(clock + ++tick * 1000).toISOString();

  const chambers: Json[] = [];
  const members = new Map<string, Json[]>();
  const events = new Map<string, Json[]>();
  const addChamber = (name: string, type: 'hq' | 'subsidiary', hqId: string | null, address: Json): Json => {
    const c = { id: id(), name, type, hq_id: hqId, status: 'active', address, created_at: stamp(), ...EXTRA, website: null };
    chambers.push(c);
    members.set(c.id, []);
    events.set(c.id, []);
    return c;
  };
  const addMember = (chamberId: string, m: Json): Json => {
    const row = {
      id: id(),
      chamber_id: chamberId,
      name: m.name,
      email: m.email,
      phone: m.phone ?? null,
      membership_type: m.membership_type,
      status: 'active',
      joined_at: stamp(),
      ...EXTRA,
    };
    members.get(chamberId)!.push(row);
    return row;
  };

  const random = new Prng(opts.seed ?? 7); // injected failures fall on the same requests every run
  for (let h = 0; h < (opts.hqs ?? 3); h++) {
    const hq = addChamber(`Foreign HQ ${h}`, 'hq', null, { street: `${h} Quay`, city: 'Ghent', postal_code: '9000', country: 'BE' });
    for (let s = 0; s < (opts.subsidiariesPerHq ?? 2); s++) {
      addChamber(`Foreign Office ${h}.${s}`, 'subsidiary', hq.id as string, { street: `${s} Dock`, city: 'Bruges', postal_code: null, country: 'BE' });
    }
  }
  for (const c of chambers) {
    for (let m = 0; m < (opts.membersPerChamber ?? 3); m++) {
      addMember(c.id as string, { name: `Person ${c.id}-${m}`, email: `p${m}.${c.id}@foreign.example`, membership_type: 'standard' });
    }
    for (let e = 0; e < (opts.eventsPerChamber ?? 2); e++) {
      const starts = new Date(clock + (e - 1) * 30 * 86_400_000);
      events.get(c.id as string)!.push({
        id: id(),
        chamber_id: c.id,
        title: `Meeting ${e}`,
        status: e === 0 ? 'past' : 'upcoming',
        starts_at: starts.toISOString(),
        ends_at: new Date(starts.getTime() + 7_200_000).toISOString(),
        location: null,
        ...EXTRA,
      });
    }
  }

  const tokens = new Map<string, string>(); // token -> version
  let refuseNew = false;
  let failing = { n: 0, status: 503, retryAfter: '0' };
  let created = 0;
  const revokeAt = new Set(opts.revokeAfterCreated ?? []);
  const stats = { tokenRequests: 0, requests: 0, injected: 0, posts: 0, revocations: 0 };
  const revokeAll = () => {
    tokens.clear();
    stats.revocations++;
  };

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  };

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const m = /^\/(v1|v2)(\/.*)$/.exec(url.pathname);
    if (!m || (opts.v1Only && m[1] === 'v2')) return send(res, 404, { error: 'Not Found' });
    const version = m[1]!;
    const path = m[2]!;

    if (path === '/auth/token') {
      if (req.method !== 'POST') return send(res, 405, { error: 'Method Not Allowed' }, { allow: 'POST' });
      stats.tokenRequests++;
      const body = parseJson(raw);
      if (body?.client_id !== FOREIGN_CLIENT_ID || body?.client_secret !== FOREIGN_CLIENT_SECRET) {
        return send(res, 401, { error: 'invalid_client', error_description: 'Client authentication failed' });
      }
      const token = randomBytes(16).toString('hex');
      if (!refuseNew) tokens.set(token, version);
      return send(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600, scope: 'directory' });
    }

    stats.requests++;
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || tokens.get(bearer) !== version) return send(res, 401, { error: 'Unauthenticated.' });
    if (failing.n > 0 || (opts.failRate && random.chance(opts.failRate))) {
      if (failing.n > 0) failing.n--;
      stats.injected++;
      return send(res, failing.status, { error: 'Service temporarily unavailable' }, { 'retry-after': failing.retryAfter });
    }

    const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
    const chamber = parts[1] !== undefined ? chambers.find((c) => c.id === parts[1]) : undefined;
    if (parts[0] !== 'chambers' || parts.length > 3 || (parts.length === 3 && !['members', 'events'].includes(parts[2]!))) {
      return send(res, 404, { error: 'Not Found' });
    }
    if (parts.length >= 2 && !chamber) return send(res, 404, { error: 'Chamber not found.' });

    if (req.method === 'POST') {
      if (version === 'v1' || parts.length === 2 || parts[2] === 'events') return send(res, 405, { error: 'Method Not Allowed' });
      stats.posts++;
      const body = parseJson(raw);
      if (!body) return send(res, 400, { error: 'Malformed JSON.' });
      if (parts.length === 1) {
        const fields = chamberErrors(body, chambers);
        if (fields) return send(res, 400, { error: 'The given data was invalid.', fields });
        const c = addChamber(String(body.name), body.type as 'hq' | 'subsidiary', (body.hq_id as string) ?? null, body.address as Json);
        return send(res, opts.postStatus ?? 200, c);
      }
      const fields = memberErrors(body);
      if (fields) return send(res, 400, { error: 'The given data was invalid.', fields });
      const list = members.get(chamber!.id as string)!;
      if (list.some((x) => String(x.email).toLowerCase() === String(body.email).toLowerCase())) {
        return send(res, 409, { error: 'Conflict.', fields: { email: ['The email has already been taken.'] } });
      }
      const row = addMember(chamber!.id as string, body);
      created++;
      send(res, opts.postStatus ?? 200, row);
      if (revokeAt.has(created)) revokeAll();
      return;
    }
    if (req.method !== 'GET') return send(res, 405, { error: 'Method Not Allowed' }, { allow: 'GET' });
    if (parts[2] === 'events' && version === 'v1') return send(res, 404, { error: 'Not Found' });

    if (parts.length === 2) {
      const out: Json = { ...chamber };
      if (version === 'v2') {
        for (const inc of (url.searchParams.get('include') ?? '').split(',').filter(Boolean)) {
          if (inc === 'members') out.members = members.get(chamber!.id as string);
          else if (inc === 'events') out.events = events.get(chamber!.id as string);
          else return send(res, 400, { error: 'Invalid include.', fields: { include: [`unknown relation ${inc}`] } });
        }
      }
      return send(res, 200, out);
    }

    const paging = pageOf(url.searchParams);
    if ('fields' in paging) return send(res, 400, { error: 'Invalid query.', fields: paging.fields });
    let items = parts.length === 1 ? chambers : parts[2] === 'members' ? members.get(chamber!.id as string)! : events.get(chamber!.id as string)!;
    if (version === 'v2') {
      const type = url.searchParams.get('filter[type]');
      const status = url.searchParams.get('filter[status]');
      if (type) items = items.filter((x) => x.type === type);
      if (status) items = items.filter((x) => x.status === status);
      const sort = url.searchParams.get('sort');
      if (sort) {
        const key = sort.replace(/^-/, '');
        const dir = sort.startsWith('-') ? -1 : 1;
        items = [...items].sort((a, b) => dir * (String(a[key]).localeCompare(String(b[key])) || Number(a.id) - Number(b.id)));
      }
    }
    const { page, perPage } = paging;
    return send(res, 200, {
      data: items.slice((page - 1) * perPage, page * perPage),
      meta: { current_page: page, total: items.length, per_page: perPage, last_page: Math.max(1, Math.ceil(items.length / perPage)) },
      links: { next: null },
    });
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    clientId: FOREIGN_CLIENT_ID,
    clientSecret: FOREIGN_CLIENT_SECRET,
    revokeAll,
    refuseNewTokens(refuse) {
      refuseNew = refuse;
    },
    failNext(n, status = 503, retryAfter = '0') {
      failing = { n, status, retryAfter };
    },
    chambers,
    membersOf: (chamberId) => members.get(chamberId) ?? [],
    stats,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function parseJson(raw: string): Json | undefined {
  try {
    const v: unknown = JSON.parse(raw);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
  } catch {
    return undefined;
  }
}

function pageOf(q: URLSearchParams): { page: number; perPage: number } | { fields: Record<string, string[]> } {
  const read = (name: string, dflt: number) => {
    const v = q.get(name);
    if (v === null) return dflt;
    return /^[1-9][0-9]*$/.test(v) ? Number(v) : NaN;
  };
  const page = read('page', 1);
  const perPage = read('per_page', 20);
  const fields: Record<string, string[]> = {};
  if (Number.isNaN(page)) fields.page = ['The page must be an integer.'];
  if (Number.isNaN(perPage)) fields.per_page = ['The per page must be an integer.'];
  return Object.keys(fields).length ? { fields } : { page, perPage: Math.min(perPage, 100) };
}

const text = (v: unknown) => typeof v === 'string' && v.trim() !== '';

function chamberErrors(b: Json, chambers: Json[]): Record<string, string[]> | undefined {
  const f: Record<string, string[]> = {};
  if (!text(b.name)) f.name = ['The name field is required.'];
  if (b.type !== 'hq' && b.type !== 'subsidiary') f.type = ['The selected type is invalid.'];
  if (b.type === 'subsidiary' && !chambers.some((c) => c.id === b.hq_id && c.type === 'hq')) f.hq_id = ['The selected hq id is invalid.'];
  const a = b.address as Json | undefined;
  if (!a || typeof a !== 'object') f.address = ['The address field is required.'];
  else for (const k of ['street', 'city', 'country']) if (!text(a[k])) f[`address.${k}`] = [`The address.${k} field is required.`];
  return Object.keys(f).length ? f : undefined;
}

function memberErrors(b: Json): Record<string, string[]> | undefined {
  const f: Record<string, string[]> = {};
  if (!text(b.name)) f.name = ['The name field is required.'];
  if (!text(b.email) || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(String(b.email))) f.email = ['The email must be a valid email address.'];
  if (!['standard', 'premium', 'corporate', 'honorary'].includes(String(b.membership_type))) {
    f.membership_type = ['The selected membership type is invalid.'];
  }
  return Object.keys(f).length ? f : undefined;
}
