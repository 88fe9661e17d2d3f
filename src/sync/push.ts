import { CliError, ExitCode } from '../core/exit-codes.js';
import { Chamber, Member, type ChamberCreate, type MemberCreate } from '../contract/index.js';
import { errorFromResponse } from '../client/errors.js';
import type { HttpClient, HttpResponse } from '../client/http.js';
import { pathSegment } from '../client/path.js';
import type { TokenProvider } from '../client/tokens.js';
import type { DirectoryApi } from '../client/types.js';
import { emailKey } from '../storage/store.js';
import type { CopyStore, LocalChange } from '../storage/copy-store.js';
import { isLastPage } from '../client/last-page.js';

// `sync push`: the chambers and members created in a copy, sent to the remote in the order
// they were made, each at most once there:
// - every POST carries the change's own Idempotency-Key, so a remote that honours it (our
//   `serve`) answers a repeat with the first answer;
// - a change is marked as attempted (committed) before its POST, and one found so marked
//   was perhaps received already: for a remote that ignores the key, push looks first (a
//   chamber: in the remote's newest chambers) or relies on the interface's 409 (a member:
//   one per address per chamber) and then finds the remote's record, which counts as ours
//   only when it is the same person (name, phone, membership type): another is a conflict;
// - only after the remote's record is written into the copy (one transaction: record,
//   references moved to its id, change gone) is a change done.

/** Chambers looked at beyond those created since a first attempt (the remote may have lost some meanwhile). */
const LOOKUP_MARGIN = 20;
const PER_PAGE = 100;

export interface PushOptions {
  http: HttpClient;
  tokens: Pick<TokenProvider, 'authorized'>;
  api: Pick<DirectoryApi, 'listChambers' | 'listMembers'>;
  baseUrl: string;
  copy: CopyStore;
  dryRun: boolean;
  now: () => Date;
  /** One line per change, for the person; `problem` for a change that did not go (held, rejected). */
  report: (line: string, problem: boolean) => void;
  /** Test hook: the process is killed after this many POSTs were answered, before their bookkeeping. */
  killAfterPosts?: number;
}

export interface PlannedSend {
  id: string;
  kind: 'chamber' | 'member';
  method: 'POST';
  path: string;
  body: unknown;
}

export interface PushResult {
  pushed: number;
  /** Already at the remote (a repeat the remote recognised, or our member found under its address). */
  skipped: number;
  rejected: number;
  /** Waiting for a chamber that was not pushed (rejected, or held itself). */
  held: number;
  /** With --dry-run: what would be sent. */
  would_send?: PlannedSend[];
}

type Outcome =
  | { kind: 'pushed' | 'skipped'; remoteId: string }
  | { kind: 'rejected'; error: string };

export async function push(o: PushOptions): Promise<PushResult> {
  const { copy } = o;
  const result: PushResult = { pushed: 0, skipped: 0, rejected: 0, held: 0, ...(o.dryRun ? { would_send: [] } : {}) };
  let posts = 0;
  const wouldExist = new Set<string>(); // --dry-run: local chambers that would be pushed before

  for (const { id } of await copy.changes()) {
    // read again: an earlier change pushed in this run may have moved this one's references
    const change = await copy.change(id);
    if (!change) continue;
    const body = JSON.parse(change.body) as Record<string, unknown>;
    const dependsOn = change.kind === 'member' ? change.chamber_id : (body.hq_id as string | null | undefined);
    const blocker = dependsOn ? await copy.changeFor(dependsOn) : undefined;
    if (blocker && !wouldExist.has(blocker.record_id)) {
      result.held++;
      o.report(`held     ${changeLabel(change)} ${change.record_id} (${change.id}): waits for chamber ${dependsOn} (${blocker.id}), not pushed`, true);
      continue;
    }
    const path = change.kind === 'chamber' ? '/v2/chambers' : `/v2/chambers/${pathSegment(change.chamber_id!)}/members`;
    if (o.dryRun) {
      if (change.kind === 'chamber') wouldExist.add(change.record_id);
      result.would_send!.push({ id: change.id, kind: change.kind, method: 'POST', path, body });
      const after = blocker ? ` (${dependsOn} replaced by the id the remote gives it)` : '';
      o.report(`would send ${changeLabel(change)} ${change.record_id} (${change.id}): POST ${path}${after}`, false);
      continue;
    }
    const outcome =
      change.kind === 'chamber'
        ? await pushChamber(o, change, body as ChamberCreate, path, () => ++posts)
        : await pushMember(o, change, body as MemberCreate, path, () => ++posts);
    if (outcome.kind === 'rejected') {
      await copy.markRejected(change.id, outcome.error);
      result.rejected++;
      o.report(`rejected ${changeLabel(change)} ${change.record_id} (${change.id}): ${outcome.error}`, true);
    } else {
      result[outcome.kind]++;
      o.report(`${outcome.kind.padEnd(8)} ${changeLabel(change)} ${change.record_id} (${change.id}) -> ${outcome.remoteId}`, false);
    }
  }
  return result;
}

/** What a change made, for a person: `member "Ada Lovelace" <ada@example.org>`, `chamber "Berlin Chamber"`. */
export function changeLabel(change: Pick<LocalChange, 'kind' | 'body'>): string {
  let body: { name?: unknown; email?: unknown } = {};
  try {
    body = JSON.parse(change.body) as typeof body;
  } catch {
    // a body that is not JSON: the ids alone
  }
  const name = typeof body.name === 'string' ? ` ${JSON.stringify(body.name)}` : '';
  const email = change.kind === 'member' && typeof body.email === 'string' ? ` <${body.email}>` : '';
  return `${change.kind}${name}${email}`;
}

/** POST with the change's Idempotency-Key, through the token renewal of every command. */
function post(o: PushOptions, change: LocalChange, path: string, body: unknown, repeatable: boolean): Promise<HttpResponse> {
  return o.tokens.authorized('v2', (token) =>
    o.http.request({
      method: 'POST',
      url: `${o.baseUrl}${path}`,
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': change.idempotency_key },
      json: body,
      idempotent: repeatable,
    }),
  );
}

function answered(o: PushOptions, count: () => number): void {
  if (o.killAfterPosts !== undefined && count() >= o.killAfterPosts) process.kill(process.pid, 'SIGKILL');
}

const isRejection = (res: HttpResponse, error: CliError) =>
  res.status === 409 || res.status === 422 || res.status === 404 || (res.status === 400 && error.exitCode === ExitCode.REJECTED);

const rejectionText = (error: CliError) => [error.message, ...error.details].join('; ');

/**
 * A 2xx for a change: the record the remote made (as it sent it, fields and all) goes into
 * the copy. An answer replayed for the change's key was made by an earlier attempt.
 */
async function created<T extends { id: string }>(
  o: PushOptions,
  res: HttpResponse,
  path: string,
  schema: { safeParse: (v: unknown) => { success: boolean } },
  settle: (record: T) => unknown,
): Promise<Outcome> {
  if (!schema.safeParse(res.json).success) {
    throw new CliError(`unexpected answer from POST ${o.baseUrl}${path}: not the record it created`, ExitCode.FAILURE);
  }
  const record = res.json as T;
  await settle(record);
  return { kind: res.headers['idempotent-replayed'] === 'true' ? 'skipped' : 'pushed', remoteId: record.id };
}

async function pushChamber(o: PushOptions, change: LocalChange, body: ChamberCreate, path: string, count: () => number): Promise<Outcome> {
  for (let attempt = 1; ; attempt++) {
    // A first attempt may have created it at a remote that ignores Idempotency-Key: look
    // among the chambers of its type created since (newest first), before sending again.
    if (change.attempted_at && change.remote_before !== null) {
      const found = await findChamber(o, body, change.remote_before);
      if (found) {
        await o.copy.settleChamber(change, found);
        return { kind: 'skipped', remoteId: found.id };
      }
    }
    change.remote_before ??= await chambersOfType(o, body.type);
    change.attempted_at = o.now().toISOString();
    await o.copy.markAttempted(change.id, change.attempted_at, change.remote_before);
    let res: HttpResponse;
    try {
      // not repeated blindly: a lost answer is followed by the look-up above
      res = await post(o, change, path, body, false);
    } catch (err) {
      if (attempt < 3 && err instanceof CliError && err.exitCode === ExitCode.FAILURE) continue;
      throw err;
    }
    answered(o, count);
    if (res.status >= 200 && res.status < 300) return created<Chamber>(o, res, path, Chamber, (c) => o.copy.settleChamber(change, c));
    const error = errorFromResponse(res);
    if (isRejection(res, error)) return { kind: 'rejected', error: rejectionText(error) };
    throw error;
  }
}

async function pushMember(o: PushOptions, change: LocalChange, body: MemberCreate, path: string, count: () => number): Promise<Outcome> {
  change.attempted_at = o.now().toISOString();
  await o.copy.markAttempted(change.id, change.attempted_at);
  // Safe to repeat: a repeat is recognised by its key, or refused with 409 for its address.
  const res = await post(o, change, path, body, true);
  answered(o, count);
  if (res.status >= 200 && res.status < 300) return created<Member>(o, res, path, Member, (m) => o.copy.settleMember(change, m));
  const error = errorFromResponse(res);
  if (res.status === 409) {
    // The chamber has a member with that address: ours, from an attempt whose answer was
    // lost, or another person added at the remote meanwhile. Only ours is "already there";
    // another is a conflict, and the local record stays as it is.
    const found = await findMember(o, change.chamber_id!, body.email);
    if (found) {
      const differ = memberDifferences(body, found);
      if (differ.length > 0) {
        return { kind: 'rejected', error: `conflict: the remote's member ${found.id} has this e-mail address, with another ${differ.join(', ')}` };
      }
      await o.copy.settleMember(change, found);
      return { kind: 'skipped', remoteId: found.id };
    }
  }
  if (isRejection(res, error)) return { kind: 'rejected', error: rejectionText(error) };
  throw error;
}

/**
 * How the remote's member with our address differs from the one we sent: name, phone and
 * membership type, each as `field "remote" (here "local")`. The e-mail matched already, as the
 * server compares it (any case). Text is compared as the contract keeps it (trimmed).
 */
function memberDifferences(sent: MemberCreate, remote: Member): string[] {
  const text = (v: string | null | undefined) => (v ?? '').trim();
  const differ: string[] = [];
  for (const field of ['name', 'phone', 'membership_type'] as const) {
    const here = text(sent[field]);
    const there = text(remote[field]);
    if (here !== there) differ.push(`${field} ${JSON.stringify(there || null)} (here ${JSON.stringify(here || null)})`);
  }
  return differ;
}

async function chambersOfType(o: PushOptions, type: ChamberCreate['type']): Promise<number> {
  return (await o.api.listChambers('v2', { 'filter[type]': type, per_page: '1' })).meta.total;
}

/**
 * The remote's chamber made from `body`, among those of its type created since the remote
 * had `before` of them (newest first; a margin for chambers that went meanwhile). Counting
 * rather than comparing times: the remote's clock need not agree with ours.
 */
async function findChamber(o: PushOptions, body: ChamberCreate, before: number): Promise<Chamber | undefined> {
  const same = (c: Chamber) =>
    c.name === body.name &&
    c.type === body.type &&
    (c.hq_id ?? null) === (body.hq_id ?? null) &&
    c.address.street === body.address.street &&
    c.address.city === body.address.city &&
    (c.address.postal_code ?? null) === (body.address.postal_code ?? null) &&
    c.address.country === body.address.country;
  let seen = 0;
  for (let page = 1; ; page++) {
    const { data, meta } = await o.api.listChambers('v2', {
      'filter[type]': body.type,
      sort: '-created_at',
      page: String(page),
      per_page: String(PER_PAGE),
    });
    const newer = meta.total - before + LOOKUP_MARGIN; // how many can have come since
    for (const c of data) {
      if (same(c)) return c;
      if (++seen >= newer) return undefined;
    }
    if (isLastPage(page, data.length, meta)) return undefined;
  }
}

/** The remote's member of `chamberId` with `email` (newest first: a recent one is found at once). */
async function findMember(o: PushOptions, chamberId: string, email: string): Promise<Member | undefined> {
  const key = emailKey(email);
  for (let page = 1; ; page++) {
    const { data, meta } = await o.api.listMembers('v2', chamberId, { sort: '-joined_at', page: String(page), per_page: String(PER_PAGE) });
    const found = data.find((m) => emailKey(m.email) === key);
    if (found) return found;
    if (isLastPage(page, data.length, meta)) return undefined;
  }
}
