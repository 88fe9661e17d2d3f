import type { CliContext, GlobalOptions } from '../../core/context.js';
import { CliError, ExitCode } from '../../core/exit-codes.js';
import { profileInfo, type ProfileInfo } from '../../config/profile-info.js';
import { serveCredentialsHint } from '../../config/local-profile.js';
import { openProfileStore } from '../../config/profile-store.js';
import { loginHint, missingProfileHint, selectProfile } from '../../config/select.js';

/**
 * `chamberctl auth status`: the selected profile without secrets, from the config file
 * alone (no request). Exit 3 when the profile is missing or has no credentials.
 */
export async function runAuthStatus(opts: GlobalOptions, ctx: CliContext): Promise<void> {
  const store = openProfileStore(ctx.env);
  const { name, source } = selectProfile(opts, ctx.env, store);
  const hint = loginHint(name, source);
  const profile = store.get(name);
  if (!profile) throw new CliError(`there is no profile "${name}"; ${missingProfileHint(name, source)}`, ExitCode.AUTH);
  const info = profileInfo(name, profile, true, ctx.now());
  const shown = { ...info, profile_source: source, config_file: store.path };
  ctx.stdout.write(opts.json ? `${JSON.stringify(shown)}\n` : statusText(info, source, store.path));
  if (!info.logged_in) {
    const next = profile.serveDb && profile.serveDb !== ':memory:' ? serveCredentialsHint(name, profile.serveDb) : hint;
    throw new CliError(`profile "${name}" has no credentials; ${next}`, ExitCode.AUTH);
  }
}

const SOURCES = {
  flag: 'from --profile',
  env: 'from CHAMBERCTL_PROFILE',
  current: 'current profile',
  default: 'default profile',
} as const;

function statusText(info: ProfileInfo, source: keyof typeof SOURCES, path: string): string {
  const token = (t: ProfileInfo['tokens']['v1']) =>
    !t ? 'none cached' : `${t.valid ? `cached, valid until ${t.expires_at}` : `expired at ${t.expires_at}`}${t.scope !== undefined ? `, scope ${t.scope}` : ''}`;
  const rows: Array<[string, string]> = [
    ['profile', `${info.name} (${SOURCES[source]})`],
    ['base url', info.base_url],
    ['client id', info.client_id ?? '-'],
    ['client secret', info.logged_in ? 'saved' : 'none'],
    ['api version', info.api_version],
    ['token v1', token(info.tokens.v1)],
    ['token v2', token(info.tokens.v2)],
    ['config file', path],
  ];
  const width = Math.max(...rows.map(([k]) => k.length)) + 1;
  return rows.map(([k, v]) => `${`${k}:`.padEnd(width)} ${v}\n`).join('');
}
