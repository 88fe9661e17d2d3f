'use strict';
// The Node.js versions chamberctl runs on: package.json's `engines` (a test keeps the two the
// same). The floor is what storage uses of node:sqlite, the SQLite built into Node.js:
// StatementSync.setReturnArrays and DatabaseSync.isTransaction came to Node 22 in 22.16
// (src/storage/sqlite/database.ts); 23 is past its end of life and never had them all.
//
// Loaded before anything else by bin/chamberctl.js, so written for any Node.js, however old:
// it is what tells a user of an older one which to install. Run as a script it answers by its
// exit status whether the `node` running it is one (scripts/with-node.sh asks it so).

// The one statement of the range: the messages, the build's target (scripts/build.mjs and the
// other esbuild scripts: OLDEST) and src/ (storage/sqlite/node-sqlite.ts) read it from here.
const ENGINES = '^22.16 || >=24';
const NEEDED = 'Node.js 22.16 or a later 22, or Node.js 24 or later';
/** The oldest Node.js in the range: what the bundle is compiled for. */
const OLDEST = '22.16';

/** Whether chamberctl runs on Node.js `version` ("22.16.0", "v24.1.0"). */
function supports(version) {
  const parts = String(version).replace(/^v/, '').split('.');
  const major = Number(parts[0]);
  const minor = Number(parts[1]);
  return major >= 24 || (major === 22 && minor >= 16);
}

module.exports = { ENGINES, NEEDED, OLDEST, supports };

if (require.main === module) process.exitCode = supports(process.versions.node) ? 0 : 1;
