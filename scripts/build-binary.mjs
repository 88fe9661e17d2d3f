// npm run build:binary — dist/bin/chamberctl, chamberctl as one executable file for Linux
// x64 that needs nothing installed: Node.js's single executable applications, built with the
// runtime pinned below (from the npm registry, as scripts/runtimes.sh installs it), holding
// the bundle of dist/ (npm run build) as assets. bin/sea-main.js is its entry: it loads the
// bundle from those assets with bin/load-bundle.js and its code cache, extracting nothing.
//
// Node 26 builds the executable itself (`node --build-sea`); 24 would need postject.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';

const RUNTIME = '26.10.0'; // one of scripts/runtimes.sh's pinned versions
const OUT = 'dist/bin/chamberctl';
const WORK = 'dist/sea';

if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error(`build:binary makes a Linux x64 executable; this is ${process.platform} ${process.arch}`);
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
execFileSync('scripts/runtimes.sh', ['install', RUNTIME], { stdio: 'inherit' });
const node = `.runtimes/${RUNTIME}/bin/node`;

rmSync(WORK, { recursive: true, force: true });
mkdirSync(WORK, { recursive: true });
mkdirSync('dist/bin', { recursive: true });

// the entry and load-bundle.js in one script
await build({
  entryPoints: ['bin/sea-main.js'],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node26',
  outfile: `${WORK}/main.cjs`,
  logLevel: 'warning',
});
writeFileSync(`${WORK}/version`, `${pkg.version}\n`);

// the bundle as assets, under the paths they have in the project
const assets = {
  version: `${WORK}/version`,
  'sea-main.cjs': `${WORK}/main.cjs`, // a worker thread (sync pull's copy) evaluates it again
  'dist/cli.cjs': 'dist/cli.cjs',
  'dist/build-id': 'dist/build-id',
};
for (const dir of ['dist/chunks', 'dist/docs', 'completions']) {
  for (const file of readdirSync(dir)) assets[`${dir}/${file}`] = `${dir}/${file}`;
}
writeFileSync(
  `${WORK}/sea-config.json`,
  JSON.stringify({ main: `${WORK}/main.cjs`, output: OUT, disableExperimentalSEAWarning: true, useCodeCache: false, assets }, null, 2),
);
rmSync(OUT, { force: true });
execFileSync(node, ['--build-sea', `${WORK}/sea-config.json`], { stdio: ['ignore', 'ignore', 'inherit'] });
chmodSync(OUT, 0o755);
console.log(`wrote ${OUT} (${(statSync(OUT).size / 2 ** 20).toFixed(1)} MiB, Node.js ${RUNTIME})`);
