import type { CliContext, GlobalOptions } from '../../core/context.js';
import { CliError, ExitCode } from '../../core/exit-codes.js';
import type { ServerAnswer } from '../../client/check-credentials.js';
import { hasCredentials } from '../../config/profile.js';
import { profileInfo, type ProfileInfo } from '../../config/profile-info.js';
import { serveCredentialsHint } from '../../config/local-profile.js';
import { openProfileStore } from '../../config/profile-store.js';
import { loginHint, missingProfileHint, selectProfile } from '../../config/select.js';

/**
 * `chamberctl auth status`: the selected profile without secrets and, unless --offline,
 * what its server answers to its credentials now (one token request, as `gh auth status`
 * checks): a revoked or rotated client is exit 3 however valid its cached token looks.
 * --offline: the config file alone (no request). Exit 3 when the profile is missing or has
 * no credentials.
 */
export async function runAuthStatus(opts: GlobalOptions & { offline?: boolean }, ctx: CliContext): Promise<void> {
  const store = openProfileStore(ctx.env);
  const { name, source } = selectProfile(opts, ctx.env, store);
  const hint = loginHint(name, source);
  const profile = store.get(name);
  if (!profile) throw new CliError(`there is no profile "${name}"; ${missingProfileHint(name, source)}`, ExitCode.AUTH);
  const info = profileInfo(name, profile, true, ctx.now());
  let server: ServerAnswer | undefined;
  if (!opts.offline && hasCredentials(profile)) {
    const { askServerAboutCredentials } = await import('../../client/check-credentials.js');
    server = await askServerAboutCredentials(profile, opts, ctx);
  }
  const shown = {
    ...info,
    profile_source: source,
    config_file: store.path,
    ...(server && { server: server.accepted ? { accepted: true, ...(server.scope !== undefined && { scope: server.scope }) } : { accepted: false, said: server.said } }),
  };
  ctx.stdout.write(opts.json ? `${JSON.stringify(shown)}\n` : statusText(info, source, store.path, server));
  if (!info.logged_in) {
    const next = profile.serveDb && profile.serveDb !== ':memory:' ? serveCredentialsHint(name, profile.serveDb) : hint;
    throw new CliError(`profile "${name}" has no credentials; ${next}`, ExitCode.AUTH);
  }
  if (server && !server.accepted) throw new CliError(server.said, server.exitCode);
}

const SOURCES = {
  flag: 'from --profile',
  env: 'from CHAMBERCTL_PROFILE',
  current: 'current profile',
  default: 'default profile',
} as const;

function statusText(info: ProfileInfo, source: keyof typeof SOURCES, path: string, server?: ServerAnswer): string {
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
    ...(server
      ? [['server', server.accepted ? `accepts the credentials${server.scope !== undefined ? ` (scope ${server.scope})` : ''}` : server.exitCode === ExitCode.AUTH ? 'refuses the credentials (below: what it said)' : 'could not be asked (below: why)'] as [string, string]]
      : info.logged_in
        ? [['server', 'not asked (--offline)'] as [string, string]]
        : []),
  ];
  const width = Math.max(...rows.map(([k]) => k.length)) + 1;
  return rows.map(([k, v]) => `${`${k}:`.padEnd(width)} ${v}\n`).join('');
}
