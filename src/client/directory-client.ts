import type * as z from 'zod/mini';
import { CliError, ExitCode } from '../core/exit-codes.js';
import {
  Chamber,
  Event,
  Member,
  listEnvelope,
  type ApiVersion,
  type ListPage,
} from '../contract/index.js';
import { errorFromResponse } from './errors.js';
import type { HttpClient, HttpResponse } from './http.js';
import type { TokenProvider } from './tokens.js';
import { pathSegment } from './path.js';
import type { ChamberCreateBody, DirectoryApi, MemberCreateBody, WireQuery } from './types.js';

const ChamberList = listEnvelope(Chamber);
const MemberList = listEnvelope(Member);
const EventList = listEnvelope(Event);

/** The endpoints of the interface, one method each, with bearer tokens and error mapping. */
export class DirectoryClient implements DirectoryApi {
  constructor(
    private readonly http: HttpClient,
    private readonly tokens: TokenProvider,
    private readonly baseUrl: string,
  ) {}

  listChambers(version: ApiVersion, query: WireQuery): Promise<ListPage<Chamber>> {
    return this.#get(version, ['chambers'], query, ChamberList);
  }

  getChamber(version: ApiVersion, id: string, query: WireQuery): Promise<Chamber> {
    return this.#get(version, ['chambers', id], query, Chamber);
  }

  createChamber(body: ChamberCreateBody): Promise<Chamber> {
    return this.#post('v2', ['chambers'], body, Chamber);
  }

  listMembers(version: ApiVersion, chamberId: string, query: WireQuery): Promise<ListPage<Member>> {
    return this.#get(version, ['chambers', chamberId, 'members'], query, MemberList);
  }

  /**
   * Not in the interface document: `chamberctl serve` has it (docs/server-behaviour.md#extensions);
   * another server may answer 404 or 405.
   */
  getMember(chamberId: string, memberId: string): Promise<Member> {
    return this.#get('v2', ['chambers', chamberId, 'members', memberId], {}, Member);
  }

  addMember(chamberId: string, body: MemberCreateBody): Promise<Member> {
    return this.#post('v2', ['chambers', chamberId, 'members'], body, Member);
  }

  listEvents(chamberId: string, query: WireQuery): Promise<ListPage<Event>> {
    return this.#get('v2', ['chambers', chamberId, 'events'], query, EventList);
  }

  #url(version: ApiVersion, segments: string[], query: WireQuery = {}): string {
    const path = segments.map(pathSegment).join('/');
    const search = new URLSearchParams(query).toString();
    return `${this.baseUrl}/${version}/${path}${search ? `?${search}` : ''}`;
  }

  #get<S extends z.ZodMiniType>(version: ApiVersion, segments: string[], query: WireQuery, schema: S): Promise<z.output<S>> {
    return this.#call(version, 'GET', this.#url(version, segments, query), undefined, schema);
  }

  #post<S extends z.ZodMiniType>(version: ApiVersion, segments: string[], body: unknown, schema: S): Promise<z.output<S>> {
    return this.#call(version, 'POST', this.#url(version, segments), body, schema);
  }

  /** One call with the version's token, renewed on a 401 as TokenProvider.authorized says. */
  async #call<S extends z.ZodMiniType>(
    version: ApiVersion,
    method: 'GET' | 'POST',
    url: string,
    json: unknown,
    schema: S,
  ): Promise<z.output<S>> {
    const res = await this.tokens.authorized(version, (token) =>
      this.http.request({ method, url, headers: { authorization: `Bearer ${token}` }, ...(json !== undefined ? { json } : {}) }),
    );
    if (res.status < 200 || res.status >= 300) throw errorFromResponse(res);
    return expectBody(res, schema);
  }
}

/** Checks the answer against the contract; returns it as sent (fields a newer server adds are kept). */
function expectBody<S extends z.ZodMiniType>(res: HttpResponse, schema: S): z.output<S> {
  const parsed = schema.safeParse(res.json);
  if (!parsed.success) {
    const where = parsed.error.issues[0]?.path.join('.') || 'body';
    throw new CliError(`unexpected answer from ${res.method} ${res.url}: ${where} does not match the interface`, ExitCode.FAILURE);
  }
  return res.json as z.output<S>;
}
