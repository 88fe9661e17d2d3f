import type * as z from 'zod/mini';
import type {
  ApiVersion,
  Chamber,
  ChamberCreate,
  Event,
  ListPage,
  Member,
  MemberCreate,
} from '../contract/index.js';

/** Query parameters exactly as sent on the wire (`filter[status]`, `per_page`, ...). */
export type WireQuery = Record<string, string>;

/** Request bodies are sent as given (after the command checked them with the contract). */
export type ChamberCreateBody = z.input<typeof ChamberCreate>;
export type MemberCreateBody = z.input<typeof MemberCreate>;

/**
 * One call per endpoint of the interface. Implementations handle tokens, retries and error mapping:
 * a failed call rejects with a CliError carrying the exit code of docs/manual/help-exit-codes.md (401 → 3,
 * 404 → 4, 409/422 → 5, 400 → 2, network/5xx → 1) and the server's field messages.
 */
export interface DirectoryApi {
  listChambers(version: ApiVersion, query: WireQuery): Promise<ListPage<Chamber>>;
  getChamber(version: ApiVersion, id: string, query: WireQuery): Promise<Chamber>;
  createChamber(body: ChamberCreateBody): Promise<Chamber>; // v2 only
  listMembers(version: ApiVersion, chamberId: string, query: WireQuery): Promise<ListPage<Member>>;
  // v2 only, serve's route (docs/server-behaviour.md#extensions)
  getMember(chamberId: string, memberId: string): Promise<Member>;
  addMember(chamberId: string, body: MemberCreateBody): Promise<Member>; // v2 only
  listEvents(chamberId: string, query: WireQuery): Promise<ListPage<Event>>; // v2 only
}

/** What a resource command gets from `openSession(globals, ctx)` (src/client/session.ts). */
export interface Session {
  api: DirectoryApi;
  /** The profile's api-version, after --api-version; `auto` unless pinned. */
  apiVersion: 'auto' | 'v1' | 'v2';
  profileName: string;
  /**
   * For a command that writes, before it prompts or sends: exit 3 naming the profile, its
   * client and the way to a write client when the client holds only the read scope (one
   * token request at most; src/client/session.ts's requireWriteScope).
   */
  requireWrite(command: string): Promise<void>;
  /** Closes the HTTP pool; call when the command is done. */
  close(): Promise<void>;
}
