// A client generated from /v2/openapi.json with openapi-typescript (./v2.ts, kept up to date by
// client.test.ts), used with openapi-fetch as docs/server-behaviour.md#openapi-documents shows
// it. `tsc` type-checks this file on every `npm test`: the page's example compiles, and the lines
// marked @ts-expect-error must not (tsc fails if one of them compiles).
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './v2.js';

/** The example of docs/server-behaviour.md, run by client.test.ts against a test server. */
export async function documentedExample(baseUrl: string, CLIENT_ID: string, CLIENT_SECRET: string) {
  // shown begin
  const auth = createClient<paths>({ baseUrl });
  const { data: token } = await auth.POST('/auth/token', {
    body: { grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET },
  });
  const api = createClient<paths>({
    baseUrl,
    headers: { Authorization: `Bearer ${token!.access_token}` },
    querySerializer: { array: { style: 'form', explode: false } }, // include=members,events
  });
  const { data: hqs } = await api.GET('/chambers', {
    params: { query: { 'filter[type]': 'hq', sort: '-created_at', per_page: 50 } },
  });
  const { data: chamber } = await api.GET('/chambers/{id}', {
    params: { path: { id: hqs!.data[0]!.id }, query: { include: ['members', 'events'] } },
  });
  const { data: member, error } = await api.POST('/chambers/{chamber_id}/members', {
    params: { path: { chamber_id: chamber!.id }, header: { 'Idempotency-Key': 'ada-2026-03-01' } },
    body: { name: 'Ada Lovelace', email: 'ada@example.org', membership_type: 'premium' },
  });
  if (error) console.error(error.error, 'fields' in error ? error.fields : '');
  // shown end
  return { hqs: hqs!, chamber: chamber!, member, error };
}

/** What the generated types refuse (never called: only compiled). */
export function refused(api: Client<paths>) {
  // @ts-expect-error -- sort takes one of the list's four sort values
  void api.GET('/chambers', { params: { query: { sort: 'bogus' } } });
  // @ts-expect-error -- page is an integer, not the text of one
  void api.GET('/chambers', { params: { query: { page: '0' } } });
  // @ts-expect-error -- per_page likewise
  void api.GET('/chambers/{chamber_id}/members', { params: { path: { chamber_id: 'ch_1' }, query: { per_page: '50' } } });
  // @ts-expect-error -- include embeds members and events only
  void api.GET('/chambers/{id}', { params: { path: { id: 'ch_1' }, query: { include: ['bogus'] } } });
  // @ts-expect-error -- events have no sort
  void api.GET('/chambers/{chamber_id}/events', { params: { path: { chamber_id: 'ch_1' }, query: { sort: 'name' } } });
  // @ts-expect-error -- a membership type of the four
  void api.POST('/chambers/{chamber_id}/members', { params: { path: { chamber_id: 'ch_1' } }, body: { name: 'A', email: 'a@example.org', membership_type: 'gold' } });
}
