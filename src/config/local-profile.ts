import type { CliContext } from '../core/context.js';
import { normaliseBaseUrl } from './base-url.js';
import { DEFAULT_PROFILE } from './profile.js';
import type { Profile } from './profile.js';
import { openProfileStore } from './profile-store.js';
import { shouldBecomeCurrent } from './select.js';

export const LOCAL_PROFILE = 'local';

export interface ServeProfileRequest {
  /** `serve --profile NAME`, default `local`. */
  name: string;
  baseUrl: string;
  /** The server's database (a path, `:memory:`, or a URL without password): whose profile it is. */
  database: string;
  /** Credentials serve knows: a generated client, or --client-id/--client-secret. */
  clientId?: string;
  clientSecret?: string;
  /** --overwrite-profile: take over a profile that belongs to another server. */
  overwrite?: boolean;
  /** Whether saved credentials are a client of this server's database. */
  credentialsWork?: (clientId: string, clientSecret: string) => Promise<boolean>;
  /** Whether a server answers at this URL (another `serve` of the same database, still running). */
  answers?: (baseUrl: string) => Promise<boolean>;
}

export type ServeProfileResult =
  | { saved: true; profile: string; madeCurrent: boolean; alreadyCurrent?: boolean; warning?: string; tookOverFrom?: string }
  | { saved: false; profile: string; warning: string };

/**
 * The next step for a profile of `serve` that holds no working credentials: a client of its
 * database, made with `clients add` (which prints its secret), given to serve.
 */
export function serveCredentialsHint(name: string, database: string): string {
  const profile = name === LOCAL_PROFILE ? '' : ` --profile ${name}`;
  const db = /\s/.test(database) ? `'${database}'` : database;
  return `run \`chamberctl clients add NAME --db ${db}\`, then restart with \`chamberctl serve${profile} --db ${db} --client-id NAME\` and the secret it printed in CHAMBERCTL_CLIENT_SECRET (serve saves them in the profile)`;
}

/**
 * Whether two databases a serve saved are the same: a PostgreSQL URL is the same database
 * whether its password was in the URL (saved masked, `:***@`) or came from PGPASSWORD or the
 * password file (none in the URL); `postgresql:` is `postgres:`.
 */
export function sameServeDb(a: string, b: string): boolean {
  const key = (d: string) => d.replace(/^postgres(?:ql)?:\/\//i, 'postgres://').replace(/^(postgres:\/\/[^:@/]*):[^@/]*@/, '$1@');
  return key(a) === key(b);
}

const isLoopback = (url: string) => /^https?:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/.test(url);

/**
 * Called by `chamberctl serve` once it listens: points its profile (`local` unless
 * --profile) at the server, with the client credentials it knows, so the next command just
 * works. A profile belongs to the server of one database (`serveDb`): serve never takes
 * over a profile of another database, a profile made by `login`, a profile whose server
 * still answers at another address, or, for a `:memory:` server, any existing profile,
 * unless --overwrite-profile; it says so instead, and says when it moves a profile. Cached tokens
 * are dropped when the URL or the credentials change. The profile becomes the current one
 * only when nothing else would be used (no current profile saved, no `default` profile).
 */
export async function saveServeProfile(ctx: CliContext, req: ServeProfileRequest): Promise<ServeProfileResult> {
  const store = openProfileStore(ctx.env);
  const baseUrl = normaliseBaseUrl(req.baseUrl, 'the server URL');
  const { name, database } = req;
  const old = store.get(name);
  const memory = database === ':memory:';
  const ours =
    !old ||
    (old.serveDb !== undefined && sameServeDb(old.serveDb, database)) ||
    old.serveDb === ':memory:' || // that server and its database are gone
    (old.serveDb === undefined && name === LOCAL_PROFILE && isLoopback(old.baseUrl)); // written by an older serve
  if (old && !req.overwrite && (memory || !ours)) {
    const owner = old.serveDb ? `the server of ${old.serveDb}` : `${old.baseUrl} (made by \`chamberctl login\`)`;
    return {
      saved: false,
      profile: name,
      warning: memory
        ? `profile "${name}" left as it is: a :memory: server does not take over an existing profile (--profile NAME saves this one under another name)`
        : `profile "${name}" belongs to ${owner}: left as it is (--profile NAME saves this server under another name; --overwrite-profile replaces it)`,
    };
  }

  // A second server of the same database (`serve --port 0` beside a running one) leaves the
  // profile to the first: taking it over would leave it at a dead port when the second stops.
  const moved = old !== undefined && old.baseUrl !== baseUrl;
  if (moved && !req.overwrite && (await req.answers?.(old.baseUrl))) {
    return {
      saved: false,
      profile: name,
      warning: `profile "${name}" points at the server still running at ${old.baseUrl}: left as it is (--profile NAME saves this one under another name; --overwrite-profile takes it over)`,
    };
  }

  let clientId = req.clientId;
  let clientSecret = req.clientSecret;
  let warning: string | undefined;
  if (clientId === undefined && old?.clientId && old.clientSecret) {
    clientId = old.clientId;
    clientSecret = old.clientSecret;
    if (req.credentialsWork && !(await req.credentialsWork(old.clientId, old.clientSecret))) {
      warning = `the credentials saved in profile "${name}" (client ${old.clientId}) are not a client of this database: ${serveCredentialsHint(name, database)}`;
    }
  } else if (clientId === undefined) {
    warning = `profile "${name}" has no credentials for this server: ${serveCredentialsHint(name, database)}`;
  }

  const madeCurrent = shouldBecomeCurrent(store, name);
  const changed = !old || old.baseUrl !== baseUrl || old.clientId !== clientId || old.clientSecret !== clientSecret;
  const profile: Profile = {
    baseUrl,
    apiVersion: old?.apiVersion ?? 'auto',
    ...(clientId !== undefined ? { clientId } : {}),
    ...(clientSecret !== undefined ? { clientSecret } : {}),
    serveDb: database,
    tokens: changed ? {} : (old?.tokens ?? {}),
  };
  await store.set(name, profile);
  if (madeCurrent) await store.setCurrent(name);
  const alreadyCurrent = !madeCurrent && (store.current() ?? DEFAULT_PROFILE) === name;
  return { saved: true, profile: name, madeCurrent, ...(alreadyCurrent && { alreadyCurrent }), ...(warning ? { warning } : {}), ...(moved ? { tookOverFrom: old.baseUrl } : {}) };
}
