import type { CliContext, GlobalOptions } from '../../core/context.js';
import { CliError, ExitCode, signalExitCode, usageError } from '../../core/exit-codes.js';
import { DirectoryClient } from '../../client/directory-client.js';
import { openProfileForCalls, requireWriteScope } from '../../client/session.js';
import { tuneGcForImport } from '../../import/gc-tuning.js';
import { duration, Progress } from '../../import/progress.js';
import { createOutput } from '../../output/output.js';
import type { CopyStore } from '../../storage/copy-store.js';
import { copyExists, openCopy } from '../../sync/open-copy.js';
import { newPullStats, pull, PullInterrupted } from '../../sync/pull.js';
import { changeLabel, push } from '../../sync/push.js';
import { terminalLine } from '../../core/terminal-text.js';

export interface SyncOptions {
  db?: string;
  from?: string;
  to?: string;
  dryRun?: boolean;
  concurrency?: string;
  yes?: boolean;
}

const count = (n: number) => n.toLocaleString('en-US');

async function withCopy<T>(
  opts: SyncOptions,
  ctx: CliContext,
  work: (copy: CopyStore) => Promise<T>,
  copyOpts: { threaded?: boolean; mustExist?: boolean } = {},
): Promise<T> {
  const copy = await openCopy(opts.db, ctx, copyOpts);
  try {
    return await work(copy);
  } finally {
    await copy.close();
  }
}

function parseConcurrency(raw = '8'): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 32) throw usageError(`--concurrency must be a whole number from 1 to 32, not "${raw}"`);
  return Number(raw);
}

export async function runSyncPull(opts: SyncOptions, globals: GlobalOptions, ctx: CliContext): Promise<void> {
  const concurrency = parseConcurrency(opts.concurrency);
  const output = await createOutput(globals, ctx);
  // A copy is refreshed from where it came from, as push sends there, unless told otherwise;
  // for a new copy the profile is checked before the database is created.
  const named = opts.from ?? globals.profile;
  const early = named !== undefined || !copyExists(opts.db, ctx.env) ? openProfileForCalls({ ...globals, ...(named ? { profile: named } : {}) }, ctx) : undefined;
  await withCopy(opts, ctx, async (copy) => {
    const state = await copy.state();
    const p = early ?? openProfileForCalls({ ...globals, ...(state.source ? { profile: state.source.profile } : {}) }, ctx);
    try {
      if (await copy.holdsOtherData()) {
        throw new CliError(
          `${copy.location} holds chambers that no \`sync pull\` made (the demo data of \`serve\`?); pull into another database with --db PATH`,
          ExitCode.FAILURE,
        );
      }
      if (state.source && state.source.base_url !== p.baseUrl) {
        throw new CliError(
          `${copy.location} is a copy of ${state.source.base_url} (profile "${state.source.profile}"), not of ${p.baseUrl}; pull from that profile, or into another database with --db PATH`,
          ExitCode.FAILURE,
        );
      }
      const api = new DirectoryClient(p.http, p.tokens, p.baseUrl);
      tuneGcForImport(); // a pull allocates a little per row for long, as an import does
      const stats = newPullStats();
      const started = Date.now();
      const progress = new Progress({
        stream: ctx.stderr,
        mode: globals.verbose ? 'periodic' : output.settings.stderrIsTTY ? 'live' : 'off',
        label: 'pull',
        render: () => pullProgressText(stats, Date.now() - started),
        dim: output.err.dim,
      });
      progress.start();
      // Ctrl-C: no new page is asked for, what was read is committed, and the next pull goes
      // on from there; a second Ctrl-C does not wait.
      const interrupt = new AbortController();
      let stoppedBy: NodeJS.Signals | undefined;
      const off = ctx.onSignal((signal) => {
        if (stoppedBy) process.exit(signalExitCode(signal));
        stoppedBy = signal;
        interrupt.abort();
      });
      let result;
      try {
        result = await pull({
          api,
          copy,
          source: { profile: p.name, base_url: p.baseUrl },
          version: p.apiVersion === 'v1' ? 'v1' : 'v2',
          concurrency,
          now: ctx.now,
          warn: (line) => progress.log(line),
          stats,
          signal: interrupt.signal,
        });
      } catch (err) {
        if (!(err instanceof PullInterrupted)) throw err;
        progress.stop();
        ctx.stderr.write('interrupted: run `chamberctl sync pull` again to continue; what was copied is kept\n');
        ctx.exitCode = signalExitCode(stoppedBy ?? 'SIGINT');
        return;
      } finally {
        off();
        progress.stop();
      }
      const { chambers, members, events } = result;
      if (globals.json) {
        await output.stdout.write(`${JSON.stringify({ chambers, members, events, events_copied: result.eventsCopied, kept: result.kept })}\n`);
      } else {
        const secs = ((Date.now() - started) / 1000).toFixed(1);
        await output.stdout.write(
          `Pulled ${p.baseUrl} (profile "${p.name}") into ${copy.location} in ${secs} s: ` +
            `${count(chambers)} chambers, ${count(members)} members, ${count(events)} events\n`,
        );
      }
    } finally {
      await p.http.close();
    }
  }, { threaded: true });
}

/** `chambers 1,234 of 100,000 · 45,678 rows · 3,210 rows/s · ETA 1m05s` */
export function pullProgressText(s: { chambersSeen: number; chambersDone: number; rows: number }, elapsedMs: number): string {
  const rate = elapsedMs > 0 ? (s.rows / elapsedMs) * 1000 : 0;
  const parts = [`chambers ${count(s.chambersDone)} of ${s.chambersSeen ? count(s.chambersSeen) : '?'}`, `${count(s.rows)} rows`, `${count(Math.round(rate))} rows/s`];
  if (s.chambersDone > 0 && s.chambersSeen > s.chambersDone) {
    parts.push(`ETA ${duration(((s.chambersSeen - s.chambersDone) * elapsedMs) / s.chambersDone)}`);
  }
  return parts.join(' · ');
}

export async function runSyncStatus(opts: SyncOptions, globals: GlobalOptions, ctx: CliContext): Promise<void> {
  const output = await createOutput(globals, ctx);
  await withCopy(opts, ctx, async (copy) => {
    const state = await copy.state();
    const pending = (await copy.changes()).map((c) => ({
      id: c.id,
      kind: c.kind,
      label: changeLabel(c),
      state: c.state,
      ...(c.error ? { error: c.error } : {}),
      record_id: c.record_id,
      ...(c.chamber_id ? { chamber_id: c.chamber_id } : {}),
      created_at: c.created_at,
    }));
    const status = {
      database: copy.location,
      source: state.source ?? null,
      pulled_at: state.pulledAt ?? null,
      pull_in_progress: state.run !== undefined,
      counts: await copy.counts(),
      pending,
    };
    if (globals.json) return void (await output.stdout.write(`${JSON.stringify(status)}\n`));
    const lines = [
      `database:  ${status.database}`,
      `source:    ${state.source ? `${state.source.base_url} (profile "${state.source.profile}")` : 'none (not a copy made by `sync pull`)'}`,
      `pulled at: ${state.pulledAt ?? 'never completed'}${status.pull_in_progress ? ' (a pull was interrupted: run `chamberctl sync pull` to finish it)' : ''}`,
      `holds:     ${count(status.counts.chambers)} chambers, ${count(status.counts.members)} members, ${count(status.counts.events)} events`,
      `pending:   ${pending.length ? `${pending.length} local change${pending.length === 1 ? '' : 's'}` : 'nothing to push'}`,
      ...pending.map(
        (c) =>
          `  ${c.id}  ${c.label} (${c.record_id}${c.chamber_id ? ` in ${c.chamber_id}` : ''})  ${c.state}${c.error ? `: ${c.error}` : ''}`,
      ),
    ];
    await output.stdout.write(`${lines.join('\n')}\n`);
  }, { mustExist: true });
}

export async function runSyncPush(opts: SyncOptions, globals: GlobalOptions, ctx: CliContext): Promise<void> {
  const output = await createOutput(globals, ctx);
  await withCopy(opts, ctx, async (copy) => {
    const source = (await copy.state()).source;
    if (!source && !opts.to) throw new CliError(`${copy.location} is not a copy made by \`sync pull\`: there is nothing to push`, ExitCode.FAILURE);
    const profile = opts.to ?? globals.profile ?? source!.profile;
    const p = openProfileForCalls({ ...globals, profile }, ctx);
    try {
      // push POSTs what is pending: a profile that may not write is told so before the first
      // POST (a dry run sends nothing, and with nothing pending there is nothing to refuse)
      if (!opts.dryRun && (await copy.changes()).length > 0) await requireWriteScope(p, 'sync push');
      const kill = ctx.env.CHAMBERCTL_TEST_KILL_AFTER_POSTS;
      const result = await push({
        http: p.http,
        tokens: p.tokens,
        api: new DirectoryClient(p.http, p.tokens, p.baseUrl),
        baseUrl: p.baseUrl,
        copy,
        dryRun: Boolean(opts.dryRun),
        now: ctx.now,
        // what did not go, always; what went, for a person watching (or --verbose)
        report: (line, problem) => {
          if (problem || globals.verbose || opts.dryRun || output.settings.stderrIsTTY) ctx.stderr.write(`${terminalLine(line)}\n`);
        },
        ...(kill ? { killAfterPosts: Number(kill) } : {}),
      });
      if (globals.json) await output.stdout.write(`${JSON.stringify(result)}\n`);
      else if (opts.dryRun) await output.stdout.write(`Would send ${result.would_send!.length} change(s) to ${p.baseUrl}; ${result.held} held\n`);
      else {
        await output.stdout.write(
          `Pushed to ${p.baseUrl}: ${result.pushed} pushed, ${result.skipped} already there, ${result.rejected} rejected, ${result.held} held\n`,
        );
      }
      if (result.rejected > 0) {
        ctx.stderr.write(`error: the remote rejected ${result.rejected} change(s); they stay pending (see \`chamberctl sync status\`)\n`);
        ctx.exitCode = ExitCode.REJECTED;
      }
    } finally {
      await p.http.close();
    }
  }, { mustExist: true });
}

/** `id`: the change, or the local record it made. On a terminal it asks first; off one it needs --yes. */
export async function runSyncDiscard(id: string, opts: SyncOptions, globals: GlobalOptions, ctx: CliContext): Promise<void> {
  const output = await createOutput(globals, ctx);
  await withCopy(opts, ctx, async (copy) => {
    const change = (await copy.change(id)) ?? (await copy.changeFor(id));
    if (!change) throw new CliError(`there is no pending change ${JSON.stringify(id)}, nor one that made that record (see \`chamberctl sync status\`)`, ExitCode.NOT_FOUND);
    const what = `${changeLabel(change)} (${change.record_id})`;
    const { confirmDestructive } = await import('../shared/ask.js');
    await confirmDestructive(ctx, {
      yes: opts.yes,
      question: `Discard the local ${what}? It was never pushed, and is gone for good`,
      offTerminal: `sync discard deletes the local ${what}, never pushed, for good`,
      declined: 'nothing was discarded',
    });
    const r = await copy.discard(change.id);
    if (r === 'missing') throw new CliError(`there is no pending change ${JSON.stringify(id)} (see \`chamberctl sync status\`)`, ExitCode.NOT_FOUND);
    if (r !== 'discarded') {
      throw new CliError(`change ${change.id} made a chamber that pending changes ${r.dependents.join(', ')} refer to; discard those first`, ExitCode.FAILURE);
    }
    if (globals.json) await output.stdout.write(`${JSON.stringify({ discarded: change.id, kind: change.kind, record_id: change.record_id })}\n`);
    else await output.stdout.write(`Discarded ${change.id}: the local ${what} is gone\n`);
  }, { mustExist: true });
}
