// Reads whole lists of a server through its HTTP interface, for tests that compare two
// servers item by item (a remote and a copy of it).
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { call } from './http.js';

export async function tokenFor(baseUrl: string, clientId: string, clientSecret: string, version = 'v2'): Promise<string> {
  const r = await call(baseUrl, 'POST', `/${version}/auth/token`, {
    body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret },
  });
  expect(r.status).toBe(200);
  return r.body.access_token as string;
}

/** Every item of a list, page by page (100 a page). */
export async function walk(baseUrl: string, token: string, path: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const sep = path.includes('?') ? '&' : '?';
    const r = await call(baseUrl, 'GET', `${path}${sep}page=${page}&per_page=100`, { token });
    expect(r.status, `GET ${path}`).toBe(200);
    items.push(...r.body.data);
    if (r.body.data.length === 0 || page * r.body.meta.per_page >= r.body.meta.total) return items;
  }
}

export interface Side {
  baseUrl: string;
  v1: string;
  v2: string;
}

/**
 * Compares the two servers' chambers (v1 and v2), and every chamber's members (v1, v2) and
 * events (v2): the same items, in the same order, field for field. Returns the counts.
 */
export async function expectSameDirectory(a: Side, b: Side, opts: { events?: boolean } = {}) {
  const chambers = await walk(a.baseUrl, a.v2, '/v2/chambers');
  expect(await walk(b.baseUrl, b.v2, '/v2/chambers')).toEqual(chambers);
  expect(await walk(b.baseUrl, b.v1, '/v1/chambers')).toEqual(await walk(a.baseUrl, a.v1, '/v1/chambers'));
  let members = 0;
  let events = 0;
  for (const c of chambers) {
    const id = encodeURIComponent(c.id as string);
    const am = await walk(a.baseUrl, a.v2, `/v2/chambers/${id}/members`);
    expect(await walk(b.baseUrl, b.v2, `/v2/chambers/${id}/members`), `members of ${c.id}`).toEqual(am);
    members += am.length;
    if (opts.events !== false) {
      const ae = await walk(a.baseUrl, a.v2, `/v2/chambers/${id}/events`);
      expect(await walk(b.baseUrl, b.v2, `/v2/chambers/${id}/events`), `events of ${c.id}`).toEqual(ae);
      events += ae.length;
    }
  }
  return { chambers: chambers.length, members, events };
}

/** A TCP port nobody listens on now (for a server that must come back on the same one). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
