// Writes the manual (docs/manual/) and the man pages (man/) from the command tree that
// chamberctl runs (src/cli/manual/generate.ts, bundled with esbuild), removes the pages of
// commands that are gone, and keeps package.json's "man" list of the man pages. A man page
// keeps its date unless its text changed. test/manual/ fails until this has been run after
// a change to a command, its help or a topic.
//
//   npm run docs:manual
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';

// Beside the packages, so that the bundle's imports of them resolve.
const bundle = 'node_modules/.cache/chamberctl/gen-docs.mjs';
await build({
  entryPoints: ['src/cli/manual/generate.ts'],
  bundle: true,
  packages: 'external',
  format: 'esm',
  platform: 'node',
  // for the Node.js running this script: npm run docs:manual, like the build, runs on any from 20 on
  target: `node${process.versions.node}`,
  outfile: bundle,
  logLevel: 'warning',
});
const { manualFiles, manPageDate, MANUAL_DIR, MAN_DIR } = await import(pathToFileURL(bundle).href);

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const today = new Date().toISOString().slice(0, 10);
const committed = (path) => (existsSync(path) ? readFileSync(path, 'utf8') : undefined);
const keptDate = (path) => manPageDate(committed(path) ?? '') ?? today;

let files = manualFiles(pkg.version, keptDate);
const changed = new Set([...files].filter(([path, text]) => path.startsWith(`${MAN_DIR}/`) && committed(path) !== text).map(([path]) => path));
if (changed.size) files = manualFiles(pkg.version, (path) => (changed.has(path) ? today : keptDate(path)));

let written = 0;
let removed = 0;
for (const dir of [MANUAL_DIR, MAN_DIR]) {
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) {
    if (!files.has(`${dir}/${name}`)) {
      rmSync(`${dir}/${name}`);
      removed++;
    }
  }
}
for (const [path, text] of files) {
  if (committed(path) === text) continue;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  written++;
}

// `npm install -g` installs the pages package.json lists
const man = [...files.keys()].filter((p) => p.startsWith(`${MAN_DIR}/`)).sort();
if (JSON.stringify(pkg.man) !== JSON.stringify(man)) {
  pkg.man = man;
  writeFileSync('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
  console.log('updated "man" in package.json');
}
console.log(`${files.size} files in ${MANUAL_DIR}/ and ${MAN_DIR}/: ${written} written, ${removed} removed`);
