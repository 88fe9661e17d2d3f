#!/usr/bin/env node
'use strict';
// CommonJS on purpose (bin/package.json): `chamberctl --version` is answered here without
// loading the bundle, so it costs little more than starting node at all. Everything else is
// the bundled CLI in dist/, loaded with V8's code cache by load-bundle.js.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  require('./load-bundle.js').run(require('node:path').join(__dirname, '..', 'dist', 'cli.cjs'), args);
}
