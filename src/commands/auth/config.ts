import type { CliContext, GlobalOptions } from '../../core/context.js';
import { CliError, ExitCode, usageError } from '../../core/exit-codes.js';
import { normaliseBaseUrl } from '../../config/base-url.js';
import { API_VERSION_SETTINGS, type ApiVersionSetting, type Profile } from '../../config/profile.js';
import { openProfileStore, type ProfileStore } from '../../config/profile-store.js';
import { missingProfileHint, selectProfile, type ProfileSource } from '../../config/select.js';
import { createOutput } from '../../output/output.js';
import { CONFIG_KEYS, OUTPUT_VALUES } from '../shared/config-keys.js';
import { sameOrigin } from '../../client/origin.js';

export interface ConfigSetFlags {
  /** base-url of another origin: keep the saved secret (it is the same server, renamed). */
  keepSecret?: boolean;
}

/**
 * `config get|set|list`: a profile's settings, changed without entering the secret again
 * (as `aws configure set` and `gh config set` do). The secret itself is never shown.
 */


/** Settable keys, and how each reads and writes the profile. */
const SETTABLE = {
  'base-url': {
    read: (p: Profile) => p.baseUrl,
    // tokens belong to the server that issued them: a new URL starts without any; the secret
    // belongs to its origin: another origin forgets it, unless --keep-secret says it is the
    // same server under a new name (docs/guides/profiles-and-auth.md#where-credentials-go)
    write: (p: Profile, v: string, flags: ConfigSetFlags): Profile => {
      const baseUrl = normaliseBaseUrl(v, 'base-url');
      if (baseUrl === p.baseUrl) return p;
      if (flags.keepSecret || sameOrigin(baseUrl, p.baseUrl)) return { ...p, baseUrl, tokens: {} };
      const { clientSecret: _forgotten, ...rest } = p;
      return { ...rest, baseUrl, tokens: {} };
    },
  },
  'api-version': {
    read: (p: Profile) => p.apiVersion,
    write: (p: Profile, v: string): Profile => {
      if (!(API_VERSION_SETTINGS as readonly string[]).includes(v)) {
        throw usageError(`api-version must be one of: ${API_VERSION_SETTINGS.join(', ')} (not "${v}")`);
      }
      return { ...p, apiVersion: v as ApiVersionSetting };
    },
  },
  output: {
    // `auto`: table on a terminal, TSV in a pipe (docs/manual/help-output.md)
    read: (p: Profile) => p.output ?? 'auto',
    write: (p: Profile, v: string): Profile => {
      if (!(OUTPUT_VALUES as readonly string[]).includes(v)) throw usageError(`output must be one of: ${OUTPUT_VALUES.join(', ')}, not "${v}"`);
      const { output: _old, ...rest } = p;
      return v === 'auto' ? rest : { ...rest, output: v as NonNullable<Profile['output']> };
    },
  },
  prompt: {
    read: (p: Profile) => p.prompt ?? 'enabled',
    write: (p: Profile, v: string): Profile => {
      if (v !== 'enabled' && v !== 'disabled') throw usageError(`prompt must be one of: enabled, disabled, not "${v}"`);
      return { ...p, prompt: v };
    },
  },
} as const;
type SettableKey = keyof typeof SETTABLE;

/** Keys that can be read but are set by `login`. */
const READ_ONLY: Record<string, (p: Profile) => string | boolean | null> = {
  'client-id': (p) => p.clientId ?? null,
  'logged-in': (p) => Boolean(p.clientId && p.clientSecret),
};

/** Every key, in the order `config --help` lists them (commands/shared/config-keys.ts). */
export const KEYS = CONFIG_KEYS.map((k) => k.key);
/** Checked by test/commands/config-keys.test.ts: the help lists exactly what works. */
export const IMPLEMENTED = { settable: Object.keys(SETTABLE), readOnly: Object.keys(READ_ONLY) };

function openProfile(opts: GlobalOptions, ctx: CliContext): { store: ProfileStore; name: string; profile: Profile; source: ProfileSource } {
  const store = openProfileStore(ctx.env);
  const { name, source } = selectProfile(opts, ctx.env, store);
  const profile = store.get(name);
  if (!profile) throw new CliError(`there is no profile "${name}"; ${missingProfileHint(name, source)}`, ExitCode.AUTH);
  return { store, name, profile, source };
}

const WHY: Record<ProfileSource, string> = {
  flag: 'from --profile',
  env: 'from CHAMBERCTL_PROFILE',
  current: 'the current profile',
  default: 'the default profile',
};

function settingsOf(profile: Profile): Record<string, string | boolean | null> {
  return {
    'base-url': profile.baseUrl,
    'api-version': profile.apiVersion,
    output: SETTABLE.output.read(profile),
    prompt: SETTABLE.prompt.read(profile),
    ...Object.fromEntries(Object.entries(READ_ONLY).map(([k, read]) => [k, read(profile)])),
  };
}

function checkKey(key: string): void {
  if (!KEYS.includes(key)) throw usageError(`unknown setting "${key}"; settings: ${KEYS.join(', ')}`);
}

/** `config list`: every setting of the profile (`--json`: an object, with the profile's name). */
export async function runConfigList(opts: GlobalOptions, ctx: CliContext): Promise<void> {
  const { name, profile, source } = openProfile(opts, ctx);
  const settings = settingsOf(profile);
  if (opts.json) {
    ctx.stdout.write(`${JSON.stringify({ profile: name, ...settings })}\n`);
    return;
  }
  const text = (value: string | boolean | null) => (value === null ? '' : String(value));
  if (!ctx.stdout.isTTY) {
    // piped: `key<TAB>value` lines, as scripts read them (unchanged)
    for (const [key, value] of Object.entries(settings)) ctx.stdout.write(`${key}\t${text(value)}\n`);
    return;
  }
  // a terminal: which profile this is, then the settings lined up
  const { out } = await createOutput(opts, ctx);
  const width = Math.max(...Object.keys(settings).map((k) => k.length)) + 2;
  let table = `${out.bold('Profile')} ${name} (${WHY[source]})\n\n${out.bold(`${'SETTING'.padEnd(width)}VALUE`)}\n`;
  for (const [key, value] of Object.entries(settings)) table += `${key.padEnd(width)}${text(value) || out.dim('-')}\n`;
  ctx.stdout.write(table);
}

/** `config get KEY`: one setting, bare (scripts: `$(chamberctl config get base-url)`). */
export async function runConfigGet(key: string, opts: GlobalOptions, ctx: CliContext): Promise<void> {
  checkKey(key);
  const { profile } = openProfile(opts, ctx);
  const value = settingsOf(profile)[key];
  ctx.stdout.write(opts.json ? `${JSON.stringify(value)}\n` : `${value === null ? '' : String(value)}\n`);
}

/** `config set KEY VALUE`: changes one setting of an existing profile, keeping its credentials. */
export async function runConfigSet(key: string, value: string, opts: GlobalOptions & ConfigSetFlags & { yes?: boolean }, ctx: CliContext): Promise<void> {
  checkKey(key);
  if (!(key in SETTABLE)) throw usageError(`${key} is set by \`chamberctl login\`, not by config set`);
  if (opts.keepSecret && key !== 'base-url') throw usageError('--keep-secret goes with config set base-url only');
  const { store, name, profile } = openProfile(opts, ctx);
  const next = SETTABLE[key as SettableKey].write(profile, value, opts);
  if (key === 'base-url' && next.baseUrl !== profile.baseUrl && Object.keys(profile.tokens).length > 0) {
    const { confirmDestructive } = await import('../shared/ask.js');
    await confirmDestructive(ctx, {
      yes: opts.yes,
      question: `Point profile "${name}" at ${next.baseUrl} instead of ${profile.baseUrl}? Its cached tokens are removed.`,
      offTerminal: `config set base-url moves profile "${name}" from ${profile.baseUrl} and removes its cached tokens`,
      declined: `profile "${name}" was left as it was`,
    });
  }
  await store.set(name, next);
  const shown = SETTABLE[key as SettableKey].read(next);
  if (opts.json) {
    ctx.stdout.write(`${JSON.stringify({ profile: name, key, value: shown })}\n`);
    return;
  }
  const forgot = profile.clientSecret !== undefined && next.clientSecret === undefined;
  const dropped = key === 'base-url' && next !== profile && Object.keys(profile.tokens).length > 0;
  const note = forgot
    ? ` (another origin: the saved secret and cached tokens removed; \`chamberctl login${opts.profile ? ` --profile ${name}` : ''}\` asks for its secret)`
    : dropped
      ? ' (cached tokens of the old server removed)'
      : '';
  ctx.stderr.write(`profile "${name}": ${key} = ${shown}${note}\n`);
}
