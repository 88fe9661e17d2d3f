#!/usr/bin/env node
'use strict';
// CommonJS on purpose (bin/package.json): `chamberctl --version` is answered here without
// starting node's ES module loader, so it costs little more than starting node at all.
// Everything else is the bundled ES module CLI in dist/.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  import('../dist/cli.js');
}
