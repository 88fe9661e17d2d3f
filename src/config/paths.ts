import envPaths from 'env-paths';

/** Where profiles live: CHAMBERCTL_CONFIG_DIR, else the platform's user config directory. */
export function configDir(env: Record<string, string | undefined>): { dir: string; fromEnv: boolean } {
  const fromEnv = env.CHAMBERCTL_CONFIG_DIR;
  if (fromEnv) return { dir: fromEnv, fromEnv: true };
  return { dir: envPaths('chamberctl', { suffix: '' }).config, fromEnv: false };
}
