// Entry point of the bundled CLI (bin/chamberctl.js loads it through bin/load-bundle.js).
// `--version` is answered before anything else loads; everything else is imported lazily.
// No top-level await: the bundle runs as CommonJS (scripts/build.mjs).
declare const __CHAMBERCTL_VERSION__: string;

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${__CHAMBERCTL_VERSION__}\n`);
} else {
  void Promise.all([import('./program.js'), import('./context.js')]).then(async ([{ run }, { processContext }]) => {
    process.exitCode = await run(argv, processContext(), __CHAMBERCTL_VERSION__);
  });
}
