import { readPackageFile } from '../files/package-file.js';
import { SCRIPT_FILES, type Shell } from './shells.js';

/**
 * The committed script for `shell`, read from the package's completions/ directory (or the
 * single executable's copy of it), so `chamberctl completion` prints exactly the files that
 * ship.
 */
export function completionScript(shell: Shell): string {
  const file = SCRIPT_FILES[shell];
  const text = readPackageFile(`completions/${file}`);
  if (text === undefined) throw new Error(`the ${shell} completion script (completions/${file}) is missing from this installation`);
  return text.toString('utf8');
}
