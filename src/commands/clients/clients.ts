import type { CliContext, GlobalOptions } from '../../core/context.js';
import { CliError, ExitCode, usageError } from '../../core/exit-codes.js';
import { localOperator } from '../../core/operator.js';
import type { ResourceView } from '../../output/columns.js';
import { formatSecond, formatTime, NONE, orNone } from '../../output/format.js';
import { ListWriter } from '../../output/list-writer.js';
import { createOutput, type Output } from '../../output/output.js';
import { pickFields } from '../../output/settings.js';
import type { ClientRecord, Scope } from '../../storage/store.js';
import { parseClientId } from '../../team/client-id.js';
import { addClient, editClientScope, listClients, revocationTarget, revokeClient, rotateClient } from '../../team/clients.js';
import { parseGrace } from '../../team/durations.js';
import { serveUrlOf, teamDbPath, withTeamStore } from '../../team/team-store.js';
import { canPrompt } from '../shared/ask.js';

export interface ClientsOptions {
  db?: string;
  scope?: Scope;
  grace?: string;
  /** `revoke`: without asking (and required off a terminal). */
  yes?: boolean;
}

const SAVE_IT = 'Save this secret now: it will not be shown again.';

import { CLIENT_FIELDS } from './fields.js';

// TSV column order is part of the interface for scripts: append only.
export const clientView: ResourceView<ClientRecord> = {
  noun: ['client', 'clients'],
  fields: CLIENT_FIELDS,
  columns: [
    { header: 'CLIENT ID', table: (c) => c.client_id },
    { header: 'SCOPE', table: (c) => c.scope },
    { header: 'CREATED', table: (c) => formatTime(c.created_at) },
    { header: 'LAST USED', table: (c) => (c.last_used_at ? formatTime(c.last_used_at) : 'never') },
    { header: 'REVOKED', table: (c) => (c.revoked_at ? formatTime(c.revoked_at) : NONE) },
    // while a rotation's grace runs: the old secret's last moment
    { header: 'OLD SECRET UNTIL', table: (c) => (c.old_secret_valid_until ? formatSecond(c.old_secret_valid_until) : NONE), optional: 1 },
  ],
  tsv: (c) => CLIENT_FIELDS.map((f) => c[f]),
  csv: { header: [...CLIENT_FIELDS], row: (c) => CLIENT_FIELDS.map((f) => c[f]) },
};

/** `--json FIELDS` of a command that prints a new secret must include it: it is never shown again. */
function checkSecretFields(globals: GlobalOptions): void {
  if (globals.jsonFields && !globals.jsonFields.includes('client_secret')) {
    throw usageError('--json: the fields must include client_secret, which is shown this once only');
  }
}

/** One object: its JSON with --json, else a `key: value` line per field (null as -), data on stdout. */
async function printObject(output: Output, fields: Record<string, string | null>): Promise<void> {
  const { mode, prettyJson } = output.settings;
  if (mode === 'json') {
    const picked = pickFields(fields, output.settings.fields);
    await output.stdout.write(`${prettyJson ? output.out.json(JSON.stringify(picked, null, 2)) : JSON.stringify(picked)}\n`);
    return;
  }
  await output.stdout.write(Object.entries(fields).map(([k, v]) => `${k}: ${orNone(v)}\n`).join(''));
}

/** A line for the person at the terminal (stderr), never for a script: the data is on stdout. */
function tell(output: Output, line: string): void {
  if (output.settings.mode !== 'json' && output.settings.stderrIsTTY) output.stderr.write(`${line}\n`);
}

/** Who the audit trail names as the maker of a change: the context's (tests), else this process's user@host. */
const operatorOf = (ctx: CliContext): string => ctx.operator ?? localOperator();

export async function runClientsAdd(rawId: string, opts: ClientsOptions, globals: GlobalOptions, ctx: CliContext): Promise<void> {
  checkSecretFields(globals);
  const id = parseClientId(rawId);
  const path = teamDbPath(opts.db, ctx.env, globals.profile);
  const output = await createOutput(globals, ctx);
  const client = await withTeamStore(path, (store) => addClient(store, id, opts.scope ?? 'write', ctx.now(), operatorOf(ctx)));
  await printObject(output, { ...client });
  tell(output, SAVE_IT);
  tell(output, loginLine(id, path, ctx, globals));
}

/** What to hand to the client's user with its secret: the exact login command (issue 43). */
function loginLine(id: string, path: string, ctx: CliContext, globals: GlobalOptions): string {
  const url = serveUrlOf(path, ctx.env, globals.profile) ?? 'URL';
  const quoted = /^[\w.@-]+$/.test(id) ? id : `'${id}'`;
  return `Its user logs in with (the secret on stdin): chamberctl login --base-url ${url} --client-id ${quoted} --client-secret-stdin`;
}

export async function runClientsList(opts: ClientsOptions, globals: GlobalOptions, ctx: CliContext): Promise<void> {
  const path = teamDbPath(opts.db, ctx.env, globals.profile);
  const output = await createOutput(globals, ctx);
  const clients = await withTeamStore(path, (store) => listClients(store, ctx.now()));
  const writer = new ListWriter(clientView, output);
  await writer.page(clients);
  await writer.end();
  output.note(clients.length ? `${clients.length} ${clients.length === 1 ? 'client' : 'clients'}` : 'no clients yet; add one with `chamberctl clients add CLIENT_ID`');
}

export async function runClientsRotate(rawId: string, opts: ClientsOptions, globals: GlobalOptions, ctx: CliContext): Promise<void> {
  checkSecretFields(globals);
  const id = parseClientId(rawId);
  const graceMs = parseGrace(opts.grace);
  const path = teamDbPath(opts.db, ctx.env, globals.profile);
  // without a grace the old secret stops at once: whoever holds it is locked out (help destructive);
  // an unknown client is exit 4 and a revoked one exit 5 before any question
  if (!graceMs && (await withTeamStore(path, (store) => revocationTarget(store, id))).revoked_at === null) {
    const { confirmDestructive } = await import('../shared/ask.js');
    await confirmDestructive(ctx, {
      yes: opts.yes,
      question: `Rotate the secret of ${JSON.stringify(id)} with no grace? The old secret and its tokens stop working at once (--grace 15m keeps them for a while).`,
      offTerminal: `rotating ${JSON.stringify(id)} without --grace stops its old secret at once`,
      declined: `${JSON.stringify(id)} was not rotated`,
    });
  }
  const output = await createOutput(globals, ctx);
  const rotated = await withTeamStore(path, (store) => rotateClient(store, id, graceMs, ctx.now(), operatorOf(ctx)));
  await printObject(output, { ...rotated });
  const old = rotated.old_secret_valid_until;
  tell(output, `${SAVE_IT} ${old ? `The old secret, and tokens issued with it, work until ${formatSecond(old)} UTC.` : 'The old secret no longer works.'}`);
  tell(output, loginLine(id, path, ctx, globals));
}

export async function runClientsEdit(rawId: string, opts: ClientsOptions, globals: GlobalOptions, ctx: CliContext): Promise<void> {
  const id = parseClientId(rawId);
  // commander makes --scope mandatory and checks its choices; this is for a caller that did not
  if (opts.scope !== 'read' && opts.scope !== 'write') throw usageError('--scope must be one of: read, write');
  const scope = opts.scope;
  const path = teamDbPath(opts.db, ctx.env, globals.profile);
  const output = await createOutput(globals, ctx);
  const { already, ...edited } = await withTeamStore(path, (store) => editClientScope(store, id, scope, ctx.now(), operatorOf(ctx)));
  await printObject(output, edited);
  tell(
    output,
    already
      ? `${JSON.stringify(id)} already has the ${scope} scope; nothing changed.`
      : scope === 'read'
        ? `${JSON.stringify(id)} now has the read scope: its tokens, those issued before included, can no longer write (on every instance within 1 s).`
        : `${JSON.stringify(id)} now has the write scope: tokens issued from now on can write; a token issued as read stays read until it expires.`,
  );
}

/** The question `clients revoke` asks on a terminal. */
export const revokeQuestion = (id: string) => `Revoke client ${JSON.stringify(id)}? It can never be used or added again.`;

export async function runClientsRevoke(rawId: string, opts: ClientsOptions, globals: GlobalOptions, ctx: CliContext): Promise<void> {
  const id = parseClientId(rawId);
  // for good: asked on a terminal, and off one only with --yes (as `gh repo delete` does)
  const ask = !opts.yes;
  if (ask && !canPrompt(ctx)) {
    throw usageError(`revoking ${JSON.stringify(id)} is permanent: pass --yes to revoke it without a terminal to confirm on`);
  }
  const path = teamDbPath(opts.db, ctx.env, globals.profile);
  const output = await createOutput(globals, ctx);
  // an unknown client is exit 4 before any question; a client revoked before needs none
  if (ask && (await withTeamStore(path, (store) => revocationTarget(store, id))).revoked_at === null) {
    const { openAsker } = await import('../shared/ask.js');
    let yes: boolean;
    try {
      yes = await (await openAsker(ctx)).confirm(revokeQuestion(id));
    } catch (err) {
      if (err instanceof CliError && err.exitCode === ExitCode.INTERRUPTED) throw new CliError(`cancelled; ${JSON.stringify(id)} was not revoked`, ExitCode.INTERRUPTED);
      throw err;
    }
    if (!yes) throw new CliError(`${JSON.stringify(id)} was not revoked`, ExitCode.FAILURE);
  }
  const { already, ...revoked } = await withTeamStore(path, (store) => revokeClient(store, id, ctx.now(), operatorOf(ctx)));
  await printObject(output, revoked);
  tell(
    output,
    already
      ? `${JSON.stringify(id)} was already revoked at ${formatSecond(revoked.revoked_at)} UTC; nothing changed.`
      : `${JSON.stringify(id)} is revoked: its secret and every token issued to it are refused from now on.`,
  );
}
