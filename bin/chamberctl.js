#!/usr/bin/env node
'use strict';
// CommonJS on purpose (bin/package.json): `chamberctl --version` is answered here without
// loading the bundle, so it costs little more than starting node at all. Everything else is
// the bundled CLI in dist/, loaded with V8's code cache by load-bundle.js. On a Node.js that
// chamberctl does not support (supported-node.js), one line says which it needs; in a checkout
// whose .runtimes/ holds the pinned Node.js (installed by `npm run demo` and `npm test`), it
// runs again on that one instead (pinned-node.js), so README's commands work on a machine whose
// own node is older. bin/chamberctl is this file under the command's name, for PATH.
const node = require('./supported-node.js');
const args = process.argv.slice(2);
if (!node.supports(process.versions.node)) {
  const pinned = require('./pinned-node.js');
  const runtime = pinned.find();
  if (runtime) pinned.runOn(runtime, __filename, args);
  else {
    // one line, before anything that needs a newer Node.js loads (README, "Exit codes")
    process.stderr.write(`error: chamberctl needs ${node.NEEDED}; this is Node.js ${process.versions.node}\n`);
    process.exitCode = 1;
  }
} else if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  require('./load-bundle.js').run(require('node:path').join(__dirname, '..', 'dist', 'cli.cjs'));
}
