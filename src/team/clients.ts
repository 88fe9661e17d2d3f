import { CliError, ExitCode } from '../core/exit-codes.js';
import { hashSecret } from '../server/auth/secrets.js';
import { randomAlphanumeric } from '../storage/ids.js';
import type { AuditFilter, AuditRecord, ClientRecord, DirectoryStore, Scope } from '../storage/store.js';

// The work of `chamberctl clients` and `audit` (docs/guides/team-access.md): each change and its
// audit record are one transaction of the storage's, the record naming the `operator` who made
// it (user@host). A secret is generated here, printed once by the command, and reaches the
// database only as its scrypt hash.

/** As long as the secret `serve` generates: 40 characters of [A-Za-z0-9], about 238 bits. */
const SECRET_LENGTH = 40;

export interface NewClient {
  client_id: string;
  client_secret: string;
  scope: Scope;
  created_at: string;
}

export interface RotatedClient {
  client_id: string;
  client_secret: string;
  old_secret_valid_until: string | null;
}

export interface EditedClient {
  client_id: string;
  scope: Scope;
  /** It had that scope already: nothing was changed or recorded. */
  already: boolean;
}

export interface RevokedClient {
  client_id: string;
  revoked_at: string;
  /** Revoked before: nothing was changed or recorded. */
  already: boolean;
}

const notFound = (id: string) => new CliError(`there is no client ${JSON.stringify(id)} (see \`chamberctl clients list\`)`, ExitCode.NOT_FOUND);

/** A new secret and its hash. */
async function newSecret(): Promise<{ secret: string; hash: string }> {
  const secret = randomAlphanumeric(SECRET_LENGTH);
  return { secret, hash: await hashSecret(secret) };
}

const revokedError = (id: string) => new CliError(`client ${JSON.stringify(id)} is revoked; add a new client instead`, ExitCode.REJECTED);

export async function addClient(store: DirectoryStore, id: string, scope: Scope, now: Date, operator: string): Promise<NewClient> {
  const { secret, hash } = await newSecret();
  const added = await store.addClient(id, hash, scope, now, operator);
  if (added === 'exists') {
    throw new CliError(`client ${JSON.stringify(id)} already exists (ids are never reused, not even a revoked client's); choose another id`, ExitCode.REJECTED);
  }
  return { client_id: added.client_id, client_secret: secret, scope: added.scope, created_at: added.created_at };
}

export async function rotateClient(store: DirectoryStore, id: string, graceMs: number, now: Date, operator: string): Promise<RotatedClient> {
  const { secret, hash } = await newSecret();
  const rotated = await store.rotateClient(id, hash, now, graceMs, operator);
  if (rotated === 'missing') throw notFound(id);
  if (rotated === 'revoked') throw revokedError(id);
  return { client_id: id, client_secret: secret, old_secret_valid_until: rotated.old_secret_valid_until };
}

/** `clients edit --scope`: exit 4 for an unknown client, 5 for a revoked one (nothing changed). */
export async function editClientScope(store: DirectoryStore, id: string, scope: Scope, now: Date, operator: string): Promise<EditedClient> {
  const edited = await store.setClientScope(id, scope, now, operator);
  if (edited === 'missing') throw notFound(id);
  if (edited === 'revoked') throw revokedError(id);
  return { client_id: id, scope, already: !edited.changed };
}

/** Where a revocation would apply: exit 4 for an unknown client; `revoked_at` when it was revoked before. */
export async function revocationTarget(store: DirectoryStore, id: string): Promise<{ revoked_at: string | null }> {
  const auth = await store.clientAuth(id);
  if (!auth) throw notFound(id);
  return { revoked_at: auth.revokedAt };
}

export async function revokeClient(store: DirectoryStore, id: string, now: Date, operator: string): Promise<RevokedClient> {
  const revoked = await store.revokeClient(id, now, operator);
  if (revoked === 'missing') throw notFound(id);
  return { client_id: id, ...revoked };
}

/**
 * Every client, oldest first; `old_secret_valid_until` only while that grace runs (at `now`),
 * null once it has ended: the old secret works no more, so there is nothing to show.
 */
export async function listClients(store: DirectoryStore, now: Date): Promise<ClientRecord[]> {
  return (await store.listClients()).map((c) => ({
    ...c,
    old_secret_valid_until: c.old_secret_valid_until !== null && Date.parse(c.old_secret_valid_until) > now.getTime() ? c.old_secret_valid_until : null,
  }));
}

/** Newest first; `clientId` must name a client (they are never deleted): else exit 4. */
export async function listAudit(store: DirectoryStore, filter: AuditFilter): Promise<AuditRecord[]> {
  if (filter.clientId !== undefined && !(await store.listClients()).some((c) => c.client_id === filter.clientId)) throw notFound(filter.clientId);
  return store.listAudit(filter);
}
