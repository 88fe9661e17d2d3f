// Asks real bash, zsh and fish what they complete with the committed scripts in
// completions/, the built binary on PATH as `chamberctl`.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { BIN, cleanEnv } from '../helpers/cli.js';

export const COMPLETIONS_DIR = fileURLToPath(new URL('../../completions/', import.meta.url));
const BASH_CAPTURE = fileURLToPath(new URL('./bash-capture.bash', import.meta.url));
const ZSH_CAPTURE = fileURLToPath(new URL('./zsh-capture.zsh', import.meta.url));

export type ShellName = 'bash' | 'zsh' | 'fish';

export interface ShellWorld {
  /** Working directory of the shell (holds the CSV files). */
  cwd: string;
  env: Record<string, string>;
}

/**
 * Under `root`: bin/chamberctl (a wrapper running the built bin/chamberctl.js with this
 * node), a working directory, and XDG directories so no shell touches the user's home.
 */
export async function makeShellWorld(root: string, configDir: string): Promise<ShellWorld> {
  const bin = join(root, 'bin');
  const cwd = join(root, 'work');
  await mkdir(bin, { recursive: true });
  await mkdir(cwd, { recursive: true });
  await writeFile(join(bin, 'chamberctl'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`, { mode: 0o755 });
  const env: Record<string, string> = {
    ...cleanEnv(),
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    CHAMBERCTL_CONFIG_DIR: configDir,
    XDG_CONFIG_HOME: join(root, 'xdg-config'),
    XDG_DATA_HOME: join(root, 'xdg-data'),
    XDG_CACHE_HOME: join(root, 'xdg-cache'),
  };
  return { cwd, env };
}

/** Fails loudly (never skips) when a shell is missing: npm run test:shells installs them first (scripts/test-tools.sh). */
export async function assertShell(shell: ShellName): Promise<void> {
  const r = await execa('sh', ['-c', `command -v ${shell}`], { reject: false });
  if (r.exitCode !== 0) {
    throw new Error(`${shell} is not installed; the completion tests need it (npm run test:shells installs it: scripts/test-tools.sh shells)`);
  }
}

/** The words bash hands a completion function for `line`: split on spaces, "=" a word of its own. */
export function bashWords(line: string): string[] {
  return line.split(' ').flatMap((w) => w.split(/(=)/).filter((part, i, all) => part !== '' || all.length === 1));
}

/** What `shell` offers for `line` followed by TAB (values only, no descriptions). */
export async function shellComplete(shell: ShellName, line: string, world: ShellWorld): Promise<string[]> {
  const run = (file: string, args: string[]) =>
    execa(file, args, { cwd: world.cwd, env: world.env, extendEnv: false, reject: false, timeout: 20_000, stdin: 'ignore' });
  let r;
  if (shell === 'bash') {
    r = await run('bash', ['--norc', '--noprofile', BASH_CAPTURE, join(COMPLETIONS_DIR, 'chamberctl.bash'), ...bashWords(line)]);
  } else if (shell === 'zsh') {
    r = await run('zsh', ['-f', ZSH_CAPTURE, COMPLETIONS_DIR, line]);
  } else {
    r = await run('fish', [
      '--no-config',
      '-c',
      'source $argv[1]; or exit 3; complete -C$argv[2]',
      join(COMPLETIONS_DIR, 'chamberctl.fish'),
      line,
    ]);
  }
  if (r.exitCode !== 0 || r.timedOut) {
    throw new Error(`${shell} failed completing "${line}" (exit ${r.exitCode}):\n${r.stderr}`);
  }
  return r.stdout
    .split('\n')
    .map((l) => l.split('\t')[0]!)
    .filter((l) => l !== '');
}
