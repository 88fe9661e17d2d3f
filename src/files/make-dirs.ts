import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * `mkdir -p` that fails where Node's own gives up never (20 to 26, tried 2026-11-28): `mkdirSync(dir, { recursive:
 * true })` spins at 100% CPU, deaf to SIGTERM, when mkdir answers ENOENT for a directory
 * whose parent exists (a path under /proc or /sys). Here each missing directory is made
 * once, top down, with `mode`; the first that cannot be made throws its error (ENOENT,
 * EACCES, ENOTDIR...). A directory that appears meanwhile (another run) is fine.
 * bin/load-bundle.js, which runs before the bundle, has a copy of this.
 */
export function makeDirs(dir: string, mode: number): void {
  const missing: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    try {
      if (statSync(at).isDirectory()) break;
      throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${at}'`), { code: 'ENOTDIR', path: at });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    missing.push(at);
    if (dirname(at) === at) break; // the root itself is missing: mkdir will say why
  }
  for (const at of missing.reverse()) {
    try {
      mkdirSync(at, { mode });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(at).isDirectory()) throw err;
    }
  }
}
