// Entry point of the bundled CLI (bin/chamberctl.js loads it through bin/load-bundle.js).
// `--version` is answered before anything else loads; everything else is imported lazily.
// No top-level await: the bundle runs as CommonJS (scripts/build.mjs).
import { COPY_WORKER_ARG } from '../core/copy-worker-spawn.js';

declare const __CHAMBERCTL_VERSION__: string;

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${__CHAMBERCTL_VERSION__}\n`);
} else if (argv[0] === COPY_WORKER_ARG) {
  // started again in a worker thread by `sync pull`, to write the copy (threaded-copy.ts)
  void import('../storage/sqlite/copy-worker.js').then(({ serveCopyInWorker }) => serveCopyInWorker());
} else {
  let finished = false;
  // A command whose work is still pending when nothing is left to wait on (a server whose
  // socket and timers are all gone) would otherwise end with exit 0 and no word: it failed.
  process.once('beforeExit', () => {
    if (finished) return;
    process.stderr.write('error: chamberctl stopped before its work was done (nothing was left to wait on); this is a bug\n');
    process.exitCode = 1;
  });
  void Promise.all([import('./program.js'), import('../core/context.js')]).then(async ([{ run }, { processContext }]) => {
    process.exitCode = await run(argv, processContext(), __CHAMBERCTL_VERSION__);
    finished = true;
  });
}
