#!/usr/bin/env node
'use strict';
// CommonJS on purpose (bin/package.json): `chamberctl --version` is answered here without
// loading the bundle, so it costs little more than starting node at all. Everything else is
// the bundled CLI in dist/, loaded with V8's code cache by load-bundle.js. On a Node.js that
// chamberctl does not support (supported-node.js), one line says which it needs.
const node = require('./supported-node.js');
const args = process.argv.slice(2);
if (!node.supports(process.versions.node)) {
  // one line, before anything that needs a newer Node.js loads (README, "Exit codes")
  process.stderr.write(`error: chamberctl needs ${node.NEEDED}; this is Node.js ${process.versions.node}\n`);
  process.exitCode = 1;
} else if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  require('./load-bundle.js').run(require('node:path').join(__dirname, '..', 'dist', 'cli.cjs'));
}
