'use strict';
// The entry of the single executable (`npm run build:binary`, scripts/build-binary.mjs): the
// same bundle as dist/, read from the executable's own assets instead of files, and loaded by
// load-bundle.js with the same code cache in the user's cache directory. Nothing is extracted
// to disk: each file is compiled from its asset's text. Bundled with load-bundle.js into one
// script, since a single executable's main script can require node's built-ins only.
const sea = require('node:sea');
const path = require('node:path');
const { run } = require('./load-bundle.js');

/**
 * Where the bundle's files seem to be, for their names in stack traces and for the relative
 * requires between them: a folder beside the executable that does not exist on disk.
 */
const ROOT = path.join(path.dirname(process.execPath), 'chamberctl.bundle');

/** An asset by the path it had in the project (dist/cli.cjs, dist/chunks/…), as a missing file would fail. */
function read(filename) {
  const key = path.relative(ROOT, filename).split(path.sep).join('/');
  try {
    return sea.getAsset(key, 'utf8');
  } catch {
    throw Object.assign(new Error(`ENOENT: no such asset in this executable: ${key}`), { code: 'ENOENT', path: filename });
  }
}

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(sea.getAsset('version', 'utf8'));
} else {
  run(path.join(ROOT, 'dist', 'cli.cjs'), process.env, { read });
}
