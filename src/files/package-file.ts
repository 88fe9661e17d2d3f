import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getRawAsset, isSea } from 'node:sea';

/**
 * A file that ships with chamberctl, by its path in the package (`completions/chamberctl.bash`,
 * `dist/docs/swagger-ui.css`); undefined when this installation lacks it. In the single
 * executable (npm run build:binary) it is one of the executable's assets, under the same
 * path; elsewhere it is looked up from this module's location upwards (src/files/ under the
 * tests, dist/chunks/ once bundled), whatever the nesting.
 */
export function readPackageFile(path: string): Buffer | undefined {
  if (isSea()) {
    try {
      return Buffer.from(getRawAsset(path) as ArrayBuffer); // a view of the executable's memory, not a copy
    } catch {
      return undefined; // not among the assets
    }
  }
  // CommonJS once bundled (scripts/build.mjs), an ES module under the tests
  let dir = dirname(typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, path);
    if (existsSync(candidate)) return readFileSync(candidate);
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}
