'use strict';
// In a checkout, on a Node.js older than chamberctl runs on: the pinned LTS that
// scripts/runtimes.sh installs into .runtimes/ (scripts/with-node.sh uses the same one for the
// npm scripts), and running chamberctl again on it as the same command would have run.
// Written for any Node.js, however old, as bin/chamberctl.js loads it before anything else.
// An installed package has neither scripts/ nor .runtimes/, so there it finds nothing.
const { spawn } = require('node:child_process');
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');

/** The pinned LTS's node when .runtimes/ holds it; else undefined. */
function find() {
  let lts;
  try {
    lts = /^LTS=(\S+)$/m.exec(readFileSync(join(ROOT, 'scripts', 'runtimes.sh'), 'utf8'));
  } catch (e) {
    return undefined;
  }
  const bin = lts && join(ROOT, '.runtimes', lts[1], 'bin', 'node');
  return bin && existsSync(bin) ? bin : undefined;
}

// The signals a person or a program sends to stop a command. Each is passed on to the child,
// which sees a Ctrl-C twice (once from the terminal, once from here): chamberctl takes a
// repeat within 250 ms as one (core/context.ts, onSignal).
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Runs `script args` on `runtime` with this process's stdio, and ends as it ended: its exit
 * status, or killed by the same signal, so that a shell or a supervisor sees no difference.
 */
function runOn(runtime, script, args) {
  const child = spawn(runtime, [script, ...args], { stdio: 'inherit' });
  const forward = (signal) => child.kill(signal);
  for (const signal of SIGNALS) process.on(signal, forward);
  child.on('error', (error) => {
    process.stderr.write(`error: cannot run chamberctl on ${runtime}: ${error.message}\n`);
    process.exitCode = 1;
  });
  child.on('exit', (code, signal) => {
    for (const s of SIGNALS) process.off(s, forward);
    if (signal) process.kill(process.pid, signal);
    else process.exitCode = code;
  });
}

module.exports = { find, runOn };
