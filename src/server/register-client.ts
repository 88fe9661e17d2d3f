import { randomAlphanumeric } from '../storage/ids.js';
import { StartError } from '../storage/start-error.js';
import type { DirectoryStore } from '../storage/store.js';
import { hashSecret, verifySecret } from './auth/secrets.js';

export type Registered =
  | { kind: 'added' }
  | { kind: 'exists' }
  /** The secret given is the one before the last rotation, still valid until `until`. */
  | { kind: 'old-secret'; until: string };

/**
 * `serve --client-id ID` with its secret: adds ID as a `write` client when it does not exist
 * (audited as client.add, detail `write`, by `operator`: the user@host serve runs as); starts
 * as it is when it exists and the secret is its own; refuses (StartError, nothing changed)
 * when it is revoked or has another secret. A restart never changes a client: its secret
 * changes with `clients rotate`, its scope with `clients edit`, never through serve.
 */
export async function registerNamedClient(store: DirectoryStore, id: string, secret: string, now: Date, operator: string): Promise<Registered> {
  let auth = await store.clientAuth(id);
  if (!auth) {
    if ((await store.addClient(id, await hashSecret(secret), 'write', now, operator)) !== 'exists') return { kind: 'added' };
    auth = await store.clientAuth(id); // another instance added it just now
    if (!auth) throw new StartError(`the client "${id}" could not be registered; try again`);
  }
  if (auth.revokedAt) {
    throw new StartError(`the client "${id}" was revoked (chamberctl clients revoke); serve does not bring it back: choose another --client-id`);
  }
  if (await verifySecret(secret, auth.secretHash)) return { kind: 'exists' };
  const until = auth.oldSecretValidUntil;
  if (auth.oldSecretHash && until && Date.parse(until) > now.getTime() && (await verifySecret(secret, auth.oldSecretHash))) {
    return { kind: 'old-secret', until };
  }
  throw new StartError(
    `the client "${id}" exists with another secret, and serve does not change it: give its secret, or change it with \`chamberctl clients rotate ${id}\``,
  );
}

/**
 * A new database's first client, generated (audited as registerNamedClient's); its secret is
 * shown once and stored only as a hash. With a keeper (serve's profile) the credentials are
 * kept there before the database has them, and a start that finds credentials kept by a start
 * stopped before adding them adds those: whenever the database has the client, someone has its
 * secret (the first start of a database stopped by Ctrl-C at any moment locks no one out).
 */
export async function generateFirstClient(
  store: DirectoryStore,
  now: Date,
  operator: string,
  keeper?: { pending(): Promise<FirstClient | undefined>; keep(client: FirstClient): Promise<boolean> },
): Promise<FirstClient | undefined> {
  if ((await store.clientCount()) !== 0) return undefined;
  const client = (await keeper?.pending()) ?? { clientId: `cl${randomAlphanumeric(14)}`, clientSecret: randomAlphanumeric(40) };
  await keeper?.keep(client);
  // 'exists' cannot happen for a fresh random id in practice; then the next start makes another
  if ((await store.addClient(client.clientId, await hashSecret(client.clientSecret), 'write', now, operator)) === 'exists') return undefined;
  return client;
}

type FirstClient = { clientId: string; clientSecret: string };
