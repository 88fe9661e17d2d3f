import { join } from 'node:path';
import envPaths from 'env-paths';

/** Where profiles live: CHAMBERCTL_CONFIG_DIR, else the platform's user config directory. */
export function configDir(env: Record<string, string | undefined>): { dir: string; fromEnv: boolean } {
  const fromEnv = env.CHAMBERCTL_CONFIG_DIR;
  if (fromEnv) return { dir: fromEnv, fromEnv: true };
  return { dir: envPaths('chamberctl', { suffix: '' }).config, fromEnv: false };
}

/** The default database of `serve`, `sync` and `snapshot`: CHAMBERCTL_DATA_DIR, else the platform's user data directory. */
export function defaultDbPath(env: Record<string, string | undefined>): string {
  const dir = env.CHAMBERCTL_DATA_DIR || envPaths('chamberctl', { suffix: '' }).data;
  return join(dir, 'chamberctl.db');
}
