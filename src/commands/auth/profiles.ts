import type { CliContext, GlobalOptions } from '../../core/context.js';
import { usageError } from '../../core/exit-codes.js';
import { listProfiles, type ProfileInfo } from '../../config/profile-info.js';
import { openProfileStore, type ProfileStore } from '../../config/profile-store.js';
import { selectProfile } from '../../config/select.js';
import type { ResourceView } from '../../output/columns.js';
import { orNone } from '../../output/format.js';
import { ListWriter } from '../../output/list-writer.js';
import { createOutput } from '../../output/output.js';

type ProfileRow = Omit<ProfileInfo, 'tokens'>;

const tokenSummary = (p: ProfileInfo) => {
  const valid = (['v1', 'v2'] as const).filter((v) => p.tokens[v]?.valid);
  return valid.length ? valid.join(', ') : '-';
};

// TSV column order is part of the interface for scripts: append only.
const profileView: ResourceView<ProfileInfo> = {
  noun: ['profile', 'profiles'],
  columns: [
    { header: ' ', table: (p) => (p.current ? '*' : ' ') },
    { header: 'NAME', table: (p) => p.name, shrink: true },
    { header: 'BASE URL', table: (p) => p.base_url, shrink: true },
    { header: 'CLIENT ID', table: (p) => orNone(p.client_id), shrink: true },
    { header: 'API', table: (p) => p.api_version },
    { header: 'LOGGED IN', table: (p) => (p.logged_in ? 'yes' : 'no') },
    { header: 'TOKENS', table: tokenSummary },
  ],
  tsv: (p) => [p.name, p.current ? 'current' : '', p.base_url, p.client_id, p.api_version, p.logged_in ? 'yes' : 'no'],
  csv: {
    header: ['name', 'current', 'base_url', 'client_id', 'api_version', 'logged_in'],
    row: (p) => [p.name, p.current ? 'yes' : 'no', p.base_url, p.client_id, p.api_version, p.logged_in ? 'yes' : 'no'],
  },
};

/** `profiles list`: every profile, the one commands would use marked; JSON never holds secrets or tokens. */
export async function runProfilesList(opts: GlobalOptions, ctx: CliContext): Promise<void> {
  const store = openProfileStore(ctx.env);
  const { name } = selectProfile(opts, ctx.env, store);
  const profiles = listProfiles(store, name, ctx.now());
  const output = await createOutput(opts, ctx);
  if (output.settings.mode === 'json') {
    const rows: ProfileRow[] = profiles.map(({ tokens: _tokens, ...row }) => row);
    await output.stdout.write(`${output.settings.prettyJson ? output.out.json(JSON.stringify(rows, null, 2)) : JSON.stringify(rows)}\n`);
    return;
  }
  const writer = new ListWriter(profileView, output);
  await writer.page(profiles);
  await writer.end();
  if (profiles.length === 0) output.note('no profiles yet; run `chamberctl login`');
}

function requireProfile(store: ProfileStore, name: string): void {
  if (store.get(name)) return;
  const known = store.list().map((p) => p.name);
  throw usageError(`there is no profile "${name}" (${known.length ? `profiles: ${known.join(', ')}` : 'no profiles yet'})`);
}

/** `profiles use NAME`: the profile commands use from now on (--profile and CHAMBERCTL_PROFILE still win). */
export async function runProfilesUse(name: string, opts: GlobalOptions, ctx: CliContext): Promise<void> {
  const store = openProfileStore(ctx.env);
  requireProfile(store, name);
  await store.setCurrent(name);
  if (opts.json) {
    ctx.stdout.write(`${JSON.stringify({ profile: name, current: true })}\n`);
    return;
  }
  ctx.stderr.write(`now using profile "${name}"\n`);
  const env = ctx.env.CHAMBERCTL_PROFILE;
  if (env && env !== name) ctx.stderr.write(`note: CHAMBERCTL_PROFILE=${env} still takes precedence in this environment\n`);
}

/** `profiles remove NAME`: deletes the profile with its secret and tokens. */
export async function runProfilesRemove(name: string, opts: GlobalOptions & { yes?: boolean }, ctx: CliContext): Promise<void> {
  const store = openProfileStore(ctx.env);
  requireProfile(store, name);
  const { confirmDestructive } = await import('../shared/ask.js');
  const held = store.get(name)!;
  const secret = held.clientSecret ? ` with the client secret of ${held.clientId}` : '';
  await confirmDestructive(ctx, {
    yes: opts.yes,
    question: `Remove profile "${name}" (${held.baseUrl})${secret}?`,
    offTerminal: `profiles remove deletes profile "${name}"${secret}`,
    declined: `profile "${name}" was not removed`,
  });
  const wasCurrent = store.current() === name;
  await store.remove(name);
  if (opts.json) {
    ctx.stdout.write(`${JSON.stringify({ profile: name, removed: true })}\n`);
    return;
  }
  ctx.stderr.write(`removed profile "${name}" (${held.baseUrl}${held.clientId ? `, client ${held.clientId}` : ''})${wasCurrent ? '; no profile is current now (commands use "default")' : ''}\n`);
}
