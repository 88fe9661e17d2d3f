import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StartError } from '../../src/storage/start-error.js';
import { COPY_WORKER_ARG } from '../../src/core/copy-worker-spawn.js';
import { SyncCopy } from '../../src/storage/sqlite/sync-copy.js';
import { Storage } from '../../src/storage/sqlite/storage.js';
import { ThreadedCopy } from '../../src/storage/sqlite/threaded-copy.js';
import { BIN } from '../helpers/cli.js';
import { remoteChamber, remoteMember } from '../helpers/remote-records.js';

// The SQLite copy on a worker thread, as `sync pull` opens it: the built bin/chamberctl.js
// started again in a worker (npm test builds first), answering each call in order.
const spawn = { script: BIN, argv: [COPY_WORKER_ARG] };
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'chamberctl-threaded-copy-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const chamber = remoteChamber;
const member = remoteMember;

describe('ThreadedCopy', () => {
  it('writes through the worker in the order called; the file holds what an in-thread copy would read', async () => {
    const path = join(dir, 'copy.db');
    const copy = await ThreadedCopy.open(path, 32, spawn);
    expect(copy.location).toBe(path);
    const run = await copy.startRun({ profile: 'p', base_url: 'http://remote' });
    await copy.upsertChambers([chamber('ch_a'), chamber('ch_b')], run);
    await Promise.all([copy.upsertMembers([member('mb_1', 'ch_a', 'one@example.org')], run), copy.upsertMembers([member('mb_2', 'ch_b', 'two@example.org')], run)]);
    await copy.finishChamber('ch_a', run, true);
    await copy.flush();
    expect(await copy.chambersToVisit(run, '', 10)).toEqual(['ch_b']);
    await copy.finishChamber('ch_b', run, true);
    expect(await copy.finishRun(run, '2025-06-01T00:00:00.000Z', true)).toEqual([]);
    expect(await copy.counts()).toEqual({ chambers: 2, members: 2, events: 0 });
    expect(await copy.discard('lc_missing')).toBe('missing');
    await copy.close();

    const inThread = new SyncCopy(new Storage(path));
    try {
      expect(inThread.state()).toMatchObject({ source: { profile: 'p', base_url: 'http://remote' }, pulledAt: '2025-06-01T00:00:00.000Z', lastRun: run });
      expect(inThread.counts()).toEqual({ chambers: 2, members: 2, events: 0 });
    } finally {
      inThread.close();
    }
  });

  it('carries the count of members held back by pending local changes', async () => {
    const path = join(dir, 'copy.db');
    const copy = await ThreadedCopy.open(path, 32, spawn);
    const run = await copy.startRun({ profile: 'p', base_url: 'http://remote' });
    await copy.upsertChambers([chamber('ch_a')], run);
    await copy.flush();
    await copy.close();
    // a member added offline (no synced_run), then the remote's member with the same address
    const storage = new Storage(path);
    storage.db.prepare(`INSERT INTO members (id, chamber_id, name, email, email_key, phone, membership_type, status, joined_at, synced_run) VALUES ('mb_local', 'ch_a', 'L', 'x@example.org', 'x@example.org', NULL, 'standard', 'active', '2025-01-01T00:00:00.000Z', NULL)`).run();
    storage.close();
    const again = await ThreadedCopy.open(path, 32, spawn);
    await again.upsertMembers([member('mb_remote', 'ch_a', 'X@example.org')], run);
    await again.flush();
    expect(again.heldBack).toBe(1);
    await again.close();
  });

  it('a write that fails in the worker fails the next call, as the in-thread queue does', async () => {
    const copy = await ThreadedCopy.open(join(dir, 'copy.db'), 32, spawn);
    const run = await copy.startRun({ profile: 'p', base_url: 'http://remote' });
    await copy.upsertChambers([chamber('ch_a')], run);
    const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => member(`mb_${from + i}`, 'ch_a', `m${from + i}@example.org`));
    await copy.upsertMembers(rows(0, 2500), run);
    expect(await copy.chambersToVisit(run, 'zz', 1)).toEqual([]); // a read: the worker has run the writes before it
    // these fill the worker's batch, so it commits within this write, and one row breaks it
    const more = rows(2500, 2600);
    more[1234] = { ...more[1234]!, name: null as unknown as string };
    await copy.upsertMembers(more, run); // resolves at once: the worker is less than a batch behind
    await expect(copy.counts()).rejects.toThrow(/NOT NULL/);
    expect(await copy.counts()).toEqual({ chambers: 0, members: 0, events: 0 }); // the batch was rolled back, and the error reported once
    await copy.close();
  });

  it('a failed write not yet reported fails close, and the thread still ends', async () => {
    const copy = await ThreadedCopy.open(join(dir, 'copy.db'), 32, spawn);
    const run = await copy.startRun({ profile: 'p', base_url: 'http://remote' });
    const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => member(`mb_${from + i}`, 'ch_a', `m${from + i}@example.org`));
    await copy.upsertMembers(rows(0, 2500), run);
    expect(await copy.chambersToVisit(run, 'zz', 1)).toEqual([]); // the worker has run the write
    const more = rows(2500, 2600);
    more[7] = { ...more[7]!, name: null as unknown as string };
    await copy.upsertMembers(more, run); // fills the worker's batch, which fails; nobody has heard yet
    const worker = (copy as unknown as { worker: { threadId: number } }).worker;
    await expect(copy.close()).rejects.toThrow(/NOT NULL/);
    expect(worker.threadId).toBe(-1); // node sets it to -1 once the thread has ended
  });

  it('fails to open as the in-thread copy does: the same error class and message', async () => {
    const path = join(dir, 'not-a-database.db');
    writeFileSync(path, 'this is not SQLite, and long enough to have a header: '.repeat(4));
    const err = await ThreadedCopy.open(path, 32, spawn).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StartError);
    expect((err as Error).message).toBe(`cannot open the database ${path}: the file is not a SQLite database`);
  });

  it('rejects the calls waiting on a worker that stopped, and every later call', async () => {
    const copy = await ThreadedCopy.open(join(dir, 'copy.db'), 32, spawn);
    await (copy as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await expect(copy.counts()).rejects.toThrow(/the thread writing the copy stopped/);
  });
});
