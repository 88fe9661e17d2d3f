'use strict';
// Starts undici-get.cjs as bin/chamberctl.js starts the CLI (an HTTP command: the same V8
// flag and code cache), with a cache directory of its own so the CLI's cache is left alone.
require('../../../bin/load-bundle.js').run(require('node:path').join(__dirname, 'undici-get.cjs'), {
  ...process.env,
  CHAMBERCTL_CACHE_DIR: process.env.FLOOR_CACHE_DIR,
});
