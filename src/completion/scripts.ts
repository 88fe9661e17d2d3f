import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCRIPT_FILES, type Shell } from './shells.js';

/**
 * The committed script for `shell`, read from the package's completions/ directory, so
 * `chamberctl completion` prints exactly the files that ship. The directory is looked up
 * from this module's location (src/completion/ under tests, dist/chunks/ once bundled),
 * whatever the nesting.
 */
export function completionScript(shell: Shell): string {
  const file = SCRIPT_FILES[shell];
  // CommonJS once bundled (scripts/build.mjs), an ES module under the tests
  let dir = dirname(typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, 'completions', file);
    if (existsSync(candidate)) return readFileSync(candidate, 'utf8');
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error(`the ${shell} completion script (completions/${file}) is missing from this installation`);
}
