import { chmodSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type Conf from 'conf';
import { CliError, ExitCode } from '../core/exit-codes.js';
import { makeDirs } from '../files/make-dirs.js';
import { configDir } from './paths.js';
import { Profile, checkProfileName } from './profile.js';

/** The config file as stored (config.json in the config directory). */
interface StoreShape extends Record<string, unknown> {
  /** Set by `profiles use` (and by `login`/`serve` for a first profile). */
  currentProfile?: string;
  profiles?: Record<string, unknown>;
}

/** Profiles hold a client secret and tokens: the file is the user's alone. */
export const CONFIG_FILE_MODE = 0o600;
export const CONFIG_DIR_MODE = 0o700;

/**
 * The profiles in the user's config file. Every read goes to the file and every write
 * replaces it atomically (conf writes a temporary file with mode 0600 and renames it), so a
 * crash never leaves half a file and concurrent commands see each other's tokens.
 *
 * Reads are a plain JSON.parse of the file: conf (with ajv, which it loads whatever the
 * options) is loaded only to write, so a command that only reads its profile, e.g. a list
 * with a cached token, starts ~10 ms sooner.
 */
export class ProfileStore {
  #conf: Conf<StoreShape> | undefined;
  readonly path: string;

  constructor(readonly dir: string) {
    this.path = join(dir, 'config.json');
  }

  current(): string | undefined {
    const name = this.#read().currentProfile;
    return typeof name === 'string' && name ? name : undefined;
  }

  setCurrent(name: string | undefined): Promise<void> {
    return this.#write((s) => {
      if (name === undefined) delete s.currentProfile;
      else s.currentProfile = name;
    });
  }

  get(name: string): Profile | undefined {
    const profiles = this.#read().profiles ?? {};
    return Object.hasOwn(profiles, name) ? this.#parse(name, profiles[name]) : undefined;
  }

  /** Every profile, sorted by name. */
  list(): Array<{ name: string; profile: Profile }> {
    const profiles = this.#read().profiles ?? {};
    return Object.keys(profiles)
      .sort()
      .map((name) => ({ name, profile: this.#parse(name, profiles[name]) }));
  }

  set(name: string, profile: Profile): Promise<void> {
    checkProfileName(name);
    const value = Profile.parse(profile);
    return this.#write((s) => {
      s.profiles = { ...(s.profiles ?? {}), [name]: value };
    });
  }

  /** Reads, changes and writes one profile; returns what was written. */
  async update(name: string, change: (p: Profile | undefined) => Profile): Promise<Profile> {
    const next = change(this.get(name));
    await this.set(name, next);
    return next;
  }

  /** Removes a profile (and clears it as current); false when there was none. */
  async remove(name: string): Promise<boolean> {
    let removed = false;
    await this.#write((s) => {
      if (s.profiles && Object.hasOwn(s.profiles, name)) {
        const { [name]: _gone, ...rest } = s.profiles;
        s.profiles = rest;
        removed = true;
      }
      if (s.currentProfile === name) delete s.currentProfile;
    });
    return removed;
  }

  #read(): StoreShape {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw configError(this.path, err);
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw configError(this.path, err);
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw configError(this.path, new Error('it is not a JSON object'));
    return data as StoreShape;
  }

  async #write(change: (s: StoreShape) => void): Promise<void> {
    let conf: Conf<StoreShape>;
    try {
      conf = this.#conf ??= await openConf(this.dir);
    } catch (err) {
      // conf reads the file as it opens: a file that is not JSON is a read error
      throw err instanceof SyntaxError ? configError(this.path, err) : this.#writeError(err);
    }
    // read, change and write with no await between: two writes of one command never
    // start from the same file (a token of v1 and one of v2, say)
    const store = { ...this.#read() };
    change(store);
    try {
      conf.store = store;
    } catch (err) {
      throw this.#writeError(err);
    }
  }

  #writeError(err: unknown): CliError {
    return new CliError(`cannot write the config file ${this.path}: ${(err as Error).message}`, ExitCode.FAILURE);
  }

  #parse(name: string, raw: unknown): Profile {
    const r = Profile.safeParse(raw);
    if (!r.success) {
      throw new CliError(
        `profile "${name}" in ${this.path} is malformed; run \`chamberctl login --profile ${name}\` or \`chamberctl profiles remove ${name}\``,
        ExitCode.FAILURE,
      );
    }
    return r.data;
  }
}

async function openConf(dir: string): Promise<Conf<StoreShape>> {
  const { default: Conf } = await import('conf');
  return new Conf<StoreShape>({
    cwd: dir,
    configName: 'config',
    configFileMode: CONFIG_FILE_MODE,
    // profile names may contain dots
    accessPropertiesByDotNotation: false,
  });
}

function configError(path: string, err: unknown): CliError {
  const why = err instanceof SyntaxError ? 'it is not valid JSON' : (err as Error).message;
  const error = new CliError(`cannot read the config file ${path}: ${why}; fix or delete it`, ExitCode.FAILURE);
  error.cause = err;
  return error;
}

/**
 * Opens the store in CHAMBERCTL_CONFIG_DIR or the platform's config directory. A directory
 * this creates is 0700; the platform default is tightened to 0700 even if it existed (it is
 * ours alone); a directory named by CHAMBERCTL_CONFIG_DIR that already exists is left as is.
 */
export function openProfileStore(env: Record<string, string | undefined>): ProfileStore {
  const { dir, fromEnv } = configDir(env);
  try {
    makeDirs(dir, CONFIG_DIR_MODE);
    if (!fromEnv && (statSync(dir).mode & 0o077) !== 0) chmodSync(dir, CONFIG_DIR_MODE);
  } catch (err) {
    throw new CliError(`cannot create the config directory ${dir}: ${(err as Error).message}`, ExitCode.FAILURE);
  }
  return new ProfileStore(dir);
}
