import { CliError, ExitCode } from '../core/exit-codes.js';
import type { ApiVersion, ListPage } from '../contract/index.js';
import type { DirectoryApi } from '../client/types.js';
import type { Chamber } from '../contract/index.js';
import type { CopyCounts, CopyStore, SyncSource } from '../storage/copy-store.js';
import { isLastPage } from '../client/last-page.js';

// `sync pull`: the whole directory behind a profile into a local copy, under the remote's
// ids, as the remote sent each record. Streaming (a page at a time, chambers read back from
// the copy in chunks), so memory stays flat whatever the size; resumable (the chambers a run
// has finished are recorded, and a new run of an interrupted pull continues the same run).

/** The largest page the interface allows. */
const PER_PAGE = 100;
const CHUNK = 500;

export interface PullOptions {
  api: Pick<DirectoryApi, 'listChambers' | 'listMembers' | 'listEvents'>;
  copy: CopyStore;
  source: SyncSource;
  /** The version to read with; events need v2. */
  version: ApiVersion;
  /** Chambers read at once. */
  concurrency: number;
  now: () => Date;
  /** One line for the person (a warning). */
  warn: (line: string) => void;
  stats?: PullStats;
  /** Aborted (Ctrl-C): no new page or chamber is asked for; what was read is committed, then PullInterrupted. */
  signal?: AbortSignal;
}

/** A pull stopped by its signal: what it copied is kept, and the next pull goes on from there. */
export class PullInterrupted extends Error {
  constructor() {
    super('the pull was interrupted');
  }
}

/** Live figures for the progress line. */
export interface PullStats {
  chambersSeen: number;
  chambersDone: number;
  rows: number;
}

export interface PullResult extends CopyCounts {
  /** Chambers gone at the remote but kept, because pending local changes refer to them. */
  kept: string[];
  /** Whether events were copied (not from a v1-only remote). */
  eventsCopied: boolean;
  /** Remote members not written because a pending local member has their address. */
  heldBack: number;
}

export const newPullStats = (): PullStats => ({ chambersSeen: 0, chambersDone: 0, rows: 0 });

/** Every page of a list, each handed to `take` before the next is asked for (none once `signal` is aborted). */
async function eachPage<T>(
  fetchPage: (query: Record<string, string>) => Promise<ListPage<T>>,
  take: (items: T[]) => unknown,
  signal?: AbortSignal,
): Promise<void> {
  for (let page = 1; ; page++) {
    if (signal?.aborted) throw new PullInterrupted();
    const { data, meta } = await fetchPage({ page: String(page), per_page: String(PER_PAGE) });
    if (data.length) await take(data);
    if (isLastPage(page, data.length, meta)) return;
  }
}

const isNotFound = (err: unknown) => err instanceof CliError && err.exitCode === ExitCode.NOT_FOUND;

export async function pull(o: PullOptions): Promise<PullResult> {
  const { api, copy } = o;
  const stats = o.stats ?? newPullStats();
  let version = o.version;
  const run = await copy.startRun(o.source);

  // 1. The chambers, every page (again on a resumed run: the list is a small part of the work).
  const takeChambers = async (items: Chamber[]) => {
    await copy.upsertChambers(items, run);
    stats.rows += items.length;
  };
  const listChambers = async () => {
    await copy.beginChamberList();
    try {
      await eachPage((q) => api.listChambers(version, q), takeChambers, o.signal);
    } catch (err) {
      await copy.endChamberList(false);
      throw err;
    }
    await copy.endChamberList(true);
  };
  try {
    await listChambers();
  } catch (err) {
    if (version !== 'v2' || !isNotFound(err)) throw err; // PullInterrupted too
    // a remote that serves v1 only: chambers and members, no events
    version = 'v1';
    await listChambers();
  }
  const eventsCopied = version === 'v2';
  if (!eventsCopied) o.warn('warning: the remote is read through v1, which has no events: events are not copied');
  ({ seen: stats.chambersSeen, done: stats.chambersDone } = await copy.runProgress(run));

  // 2. Each chamber's members and events, `concurrency` chambers at a time.
  let cursor = '';
  let chunk: string[] = [];
  let exhausted = false;
  let reading: Promise<void> | undefined;
  const nextChamber = async (): Promise<string | undefined> => {
    while (!chunk.length && !exhausted) {
      // one read of the next chunk at a time, shared by the workers that wait for it
      reading ??= (async () => {
        const got = await copy.chambersToVisit(run, cursor, CHUNK);
        if (got.length) (chunk = got), (cursor = got[got.length - 1]!);
        else exhausted = true;
      })().finally(() => (reading = undefined));
      await reading;
    }
    return chunk.shift();
  };
  const visit = async (id: string) => {
    try {
      await eachPage(
        (q) => api.listMembers(version, id, q),
        async (items) => {
          await copy.upsertMembers(items, run);
          stats.rows += items.length;
        },
        o.signal,
      );
      if (eventsCopied) {
        await eachPage(
          (q) => api.listEvents(id, q),
          async (items) => {
            await copy.upsertEvents(items, run);
            stats.rows += items.length;
          },
          o.signal,
        );
      }
      await copy.finishChamber(id, run, eventsCopied);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      // gone since the list was read
      if (!(await copy.removeUnlessReferenced(id))) o.warn(`warning: chamber ${id} is gone at the remote but kept: pending local changes refer to it`);
      await copy.finishChamber(id, run, eventsCopied);
    }
    stats.chambersDone++;
  };
  let failed: unknown;
  const worker = async () => {
    for (let id = await nextChamber(); id !== undefined && failed === undefined && !o.signal?.aborted; id = await nextChamber()) {
      try {
        await visit(id);
      } catch (err) {
        failed ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, o.concurrency) }, worker));
  await copy.flush(); // what was read before a failure is kept: the next run need not read it again
  if (failed !== undefined) throw failed;
  if (o.signal?.aborted) throw new PullInterrupted();

  // 3. What the remote no longer has goes, except what local changes need.
  const kept = await copy.finishRun(run, o.now().toISOString(), eventsCopied);
  for (const id of kept) o.warn(`warning: chamber ${id} is gone at the remote but kept: pending local changes refer to it`);
  return { ...(await copy.counts()), kept, eventsCopied, heldBack: copy.heldBack };
}
