// What each candidate costs a CLI that bundles it with esbuild, as scripts/build.mjs does:
// the size of its bundle (and its gzip, as in a package tarball; plus any .wasm file it reads
// beside itself), and the wall time of a fresh `node` that loads it and runs one filter on a
// small document, against `node -e 0`, as the median of RUNS runs. Usage (README.md):
//   CANDIDATES_DIR=/tmp/jqc node scripts/jq-conformance/measure.mjs [engine...]
import { build } from 'esbuild';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

const RUNS = 21;
const dir = process.env.CANDIDATES_DIR ?? process.cwd();
const require = createRequire(join(dir, 'package.json'));
const INPUT = JSON.stringify([{ id: 'ch_1', name: 'Antwerp Chamber' }]);
const FILTER = '.[0].name';

// each: the body of an async function given INPUT and FILTER, printing the result
const entries = {
  'jq-wasm-3': { code: `const { loadJq } = require('jq-wasm-3/inline'); const jq = await loadJq(); process.stdout.write(jq.raw(INPUT, FILTER, ['-r', '-c']).stdout);` },
  'jq-wasm': { code: `const { raw } = require('jq-wasm'); console.log(await raw(INPUT, FILTER, ['-r']));` },
  'jq-web': { code: `const jq = await require('jq-web'); console.log(jq.raw(INPUT, FILTER, ['-r']));`, wasm: 'jq-web/jq.wasm' },
  '@michaelhomer/jqjs': { code: `const jq = (await import('@michaelhomer/jqjs')).default; for (const v of jq.compile(FILTER)(JSON.parse(INPUT))) console.log(v);` },
  '@jq-tools/jq': { code: `const { parse, evaluate } = require('@jq-tools/jq'); for (const v of evaluate(parse(FILTER), [JSON.parse(INPUT)])) console.log(v);` },
  jqts: { code: `const JQ = require('jqts').default; for (const v of JQ.compile(FILTER).evaluate(JSON.parse(INPUT))) console.log(v);` },
  fgh: { code: `const { compile } = await import('fgh'); console.log(compile(FILTER)(JSON.parse(INPUT)));` },
};

const node = process.execPath;
const work = mkdtempSync(join(tmpdir(), 'jq-measure-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// the time since the process began (performance.now()) when the result is out, as the process reports it
const once = (args) => Number(spawnSync(node, args, { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] }).stderr.trim() || NaN);
const BASELINE = ['-e', 'process.stderr.write(String(performance.now()))'];
/** Runs the candidate and the baseline in turn (the machine's load hits both alike): the median difference. */
const overBaseline = (args) => {
  const diffs = [];
  for (let i = 0; i < RUNS; i++) diffs.push(once(args) - once(BASELINE));
  return median(diffs);
};
console.log(`node ${process.version}, median of ${RUNS} runs, each beside a run of \`node -e 0\``);
console.log('| engine | bundle KiB | gzip KiB | + .wasm KiB | load + one filter, ms over `node -e 0` |');
console.log('| --- | --- | --- | --- | --- |');
const names = process.argv.slice(2);
for (const [name, e] of Object.entries(entries)) {
  if (names.length && !names.includes(name)) continue;
  const outfile = join(work, `${name.replace(/\W/g, '_')}.cjs`);
  await build({
    stdin: { contents: `const INPUT = ${JSON.stringify(INPUT)}, FILTER = ${JSON.stringify(FILTER)};\n(async () => { ${e.code} })().then(() => process.stderr.write(String(performance.now())));`, resolveDir: dir, loader: 'js' },
    bundle: true, platform: 'node', format: 'cjs', target: 'node22', outfile, logLevel: 'error',
  });
  const text = readFileSync(outfile);
  let wasm = 0;
  if (e.wasm) {
    const from = require.resolve(e.wasm);
    copyFileSync(from, join(dirname(outfile), 'jq.wasm'));
    wasm = statSync(from).size;
  }
  const out = execFileSync(node, [outfile], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  if (!out.includes('Antwerp Chamber')) throw new Error(`${name} printed ${out}`);
  const ms = overBaseline([outfile]);
  const kib = (n) => (n / 1024).toFixed(0);
  console.log(`| ${name} | ${kib(text.length)} | ${kib(gzipSync(text).length)} | ${wasm ? kib(wasm) : '-'} | ${ms.toFixed(1)} |`);
}
