import { CLIENT_USE_RESOLUTION_MS } from '../../storage/store.js';
import type { ServerDeps } from '../deps.js';

// A client's last_used_at (docs/guides/team-access.md) is written at most once a minute: each
// instance asks the database to write it at most once a minute per client, and the
// database writes it only when the stored time is a minute old, so several instances
// together still write it once a minute. Never awaited by a request, never fails one.

const noted = new WeakMap<ServerDeps, Map<string, number>>();
const MAX_CLIENTS = 10_000;

/** The client made a request (or got a token) now. */
export function noteClientUse(deps: ServerDeps, clientId: string): void {
  let last = noted.get(deps);
  if (!last) noted.set(deps, (last = new Map()));
  const now = deps.now();
  const before = last.get(clientId);
  if (before !== undefined && now.getTime() - before < CLIENT_USE_RESOLUTION_MS) return;
  if (last.size >= MAX_CLIENTS) last.clear();
  last.set(clientId, now.getTime());
  // the database away: tried again a minute later (not on every request of an outage)
  deps.store.noteClientUse(clientId, now).catch(() => {});
}
