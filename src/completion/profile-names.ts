import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configDir } from '../config/paths.js';
import type { Candidate } from './protocol.js';

/**
 * The profile names in the config file that src/config/profile-store.ts keeps
 * (`config.json` in CHAMBERCTL_CONFIG_DIR or the user config directory), each described by
 * its base URL; the current one is marked. Read straight from the JSON rather than through
 * ProfileStore: conf and zod would triple the time of every TAB, and opening the store
 * creates the config directory. Only names and URLs are read out, never a secret; a missing
 * or unreadable file simply means no names (test/completion/profile-names.test.ts checks
 * that this agrees with the store).
 */
export function profileCandidates(env: Record<string, string | undefined>): Candidate[] {
  let stored: unknown;
  try {
    stored = JSON.parse(readFileSync(join(configDir(env).dir, 'config.json'), 'utf8'));
  } catch {
    return [];
  }
  if (!isRecord(stored) || !isRecord(stored.profiles)) return [];
  const current = typeof stored.currentProfile === 'string' ? stored.currentProfile : undefined;
  return Object.keys(stored.profiles)
    .sort()
    .map((name) => {
      const profile = (stored.profiles as Record<string, unknown>)[name];
      const url = isRecord(profile) && typeof profile.baseUrl === 'string' ? profile.baseUrl : '';
      const description = [url, name === current ? '(current)' : ''].filter(Boolean).join(' ');
      return description ? { value: name, description } : { value: name };
    });
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
