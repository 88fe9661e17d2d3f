// Bundles src/ into dist/ with esbuild.
//
// The CLI: dist/cli.cjs and lazily loaded dist/chunks/*.cjs. Code splitting keeps the
// `--version`/`--help` path free of the HTTP, server, prompt and table code, which commands
// import lazily. esbuild splits only ES modules, so the split output is then turned into
// CommonJS, file by file (a dynamic import() becomes a deferred require()): that is what
// lets bin/load-bundle.js compile each file with V8's code cache (vm.Script cachedData),
// which Node offers for scripts but not for ES modules.
//
// The benchmarks (npm run bench:*): ES modules under dist/bench/, one per bench/*.ts.
import { build, transform } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { redactPathsParsedOnce } from './redact-paths-parsed-once.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
/** The oldest Node.js chamberctl runs on (bin/supported-node.js, equal to `engines`): the bundle's target. */
const NODE_TARGET = `node${createRequire(import.meta.url)('../bin/supported-node.js').OLDEST}`;

// No stale chunks from earlier builds. The single executable (dist/bin/, npm run build:binary)
// stays: it is built only on demand, and bench:startup tells by its build id whether it holds this build.
for (const entry of existsSync('dist') ? readdirSync('dist') : []) if (entry !== 'bin') rmSync(`dist/${entry}`, { recursive: true, force: true });

/**
 * undici's cookie helpers read `globalThis.Headers` as they load, only so that
 * getCookies/setCookie accept node's own Headers objects too, which this project never
 * does. Reading that global loads node's bundled copy of undici: on Node 20 through a lazy
 * getter, on Node 22 and later through a lazy data property that even
 * Object.getOwnPropertyDescriptor triggers. Measured (40 runs, clean environment,
 * 2026-11-26): `node -e 'typeof globalThis.Headers'` against `node -e 0` costs 22 ms on
 * 22.23, 27 ms on 24.21 and 44 ms on 26.10; on Node 20.20 a cached-token `chambers list`
 * took 146 ms with the global hidden while undici loaded, 163 ms without (inherited
 * environment), 107 and 127 ms (clean). So the bundle's copy of that line names undici's
 * own Headers alone, on every runtime.
 */
const undiciCookiesWithoutNodeHeaders = {
  name: 'undici-cookies-without-node-headers',
  setup(b) {
    b.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]web[\\/]cookies[\\/]index\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const line = '[Headers, globalThis.Headers].filter(Boolean)';
      if (!text.includes(line)) throw new Error(`${args.path} no longer has ${line}: see undiciCookiesWithoutNodeHeaders`);
      return { contents: text.replace(line, '[Headers]'), loader: 'js' };
    });
  },
};

const common = {
  bundle: true,
  plugins: [undiciCookiesWithoutNodeHeaders, redactPathsParsedOnce],
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: NODE_TARGET,
  // Every dependency is bundled: resolving and loading hundreds of small module files
  // dominated start-up, and an installed package then depends on nothing (a global install
  // resolves dependencies afresh, ignoring our lockfile and overrides); SQLite is node's own,
  // node:sqlite. Only the bench-only autocannon stays external.
  external: ['autocannon'],
  sourcemap: false,
  define: { __CHAMBERCTL_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
  metafile: true,
};

const cli = await build({
  ...common,
  entryPoints: { cli: 'src/cli/main.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  chunkNames: 'chunks/[name]-[hash]',
  write: false,
});
// The bundle's identity, from the files as written: the code cache is kept per build, so a
// cache made for another build is never offered to V8 (bin/load-bundle.js).
await writeWithBuildId(cli.outputFiles, 'dist', async (text) => {
  // esbuild's own ES module → CommonJS conversion; bundled CommonJS dependencies call the
  // real require() for node built-ins once they run as CommonJS.
  const { code } = await transform(text, { format: 'cjs', platform: 'node', target: NODE_TARGET, loader: 'js' });
  // transform() leaves import() alone; between our own files it becomes a deferred require().
  return code.replace(/\bimport\((["'])(\.{1,2}\/[\w./-]+\.cjs)\1\)/g, 'Promise.resolve().then(() => require($1$2$1))');
});
/**
 * The file as pure ASCII. esbuild escapes what is not ASCII in code, but keeps comments as
 * they are, and a handful of ’ and § in undici's comments made node 20 read its 1.1 MB
 * chunk through the slow UTF-8 path, into a two-byte string: 17-25 ms of every HTTP
 * command's start-up, against 0.5 ms for the same file in ASCII (docs/performance.md).
 * A \\u escape means the same character in a comment, a string or a regular expression.
 */
function asciiOnly(code) {
  return code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Writes esbuild's output files (through `convert`, then in ASCII), and `dir/build-id`: a
 * hash of the files as written, in path order.
 */
async function writeWithBuildId(files, dir, convert = async (text) => text) {
  const written = new Map(); // path -> the text written
  for (const file of files) {
    const text = asciiOnly(await convert(file.text));
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, text);
    written.set(file.path, text);
  }
  const id = createHash('sha256');
  for (const [path, text] of [...written].sort(([a], [b]) => a.localeCompare(b))) id.update(path).update(text);
  writeFileSync(`${dir}/build-id`, `${id.digest('hex').slice(0, 32)}\n`);
}
// Which sources each output file holds: tests use it to tell which dependencies a command
// loaded (e.g. that `--help` loads no HTTP code) now that dependencies are bundled.
writeFileSync('dist/meta.json', JSON.stringify(cli.metafile));

// The API reference page of `serve` (GET /docs): Swagger UI's files, served from the package
// itself (an offline admin has no CDN). Source maps are left out, and so is the comment that
// names them (a browser's developer tools would ask the server for them).
mkdirSync('dist/docs', { recursive: true });
for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png', 'LICENSE', 'NOTICE']) {
  const from = `node_modules/swagger-ui-dist/${file}`;
  if (/\.(js|css)$/.test(file)) {
    writeFileSync(`dist/docs/${file}`, readFileSync(from, 'utf8').replace(/\n?\/[/*]# sourceMappingURL=\S+(\s*\*\/)?\s*$/, '\n'));
  } else {
    copyFileSync(from, `dist/docs/${file}`);
  }
}

const benches = (existsSync('bench') ? readdirSync('bench') : []).filter((f) => f.endsWith('.ts'));
if (benches.length > 0) {
  await build({
    ...common,
    entryPoints: Object.fromEntries(benches.map((f) => [f.slice(0, -3), `bench/${f}`])),
    outdir: 'dist/bench',
    chunkNames: 'chunks/[name]-[hash]',
    // CommonJS dependencies call require() for node built-ins.
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
}

// The floors of bench:startup (bench/floor/): CommonJS and ASCII as the CLI's files, so that
// undici-get.cjs is loaded by bin/load-bundle.js with the code cache exactly as they are.
const floorDir = 'bench/floor';
if (existsSync(floorDir)) {
  const floors = await build({
    ...common,
    splitting: false,
    format: 'cjs',
    metafile: false,
    entryPoints: Object.fromEntries(readdirSync(floorDir).filter((f) => f.endsWith('.ts')).map((f) => [f.slice(0, -3), `${floorDir}/${f}`])),
    outdir: 'dist/bench/floor',
    outExtension: { '.js': '.cjs' },
    write: false,
  });
  await writeWithBuildId(floors.outputFiles, 'dist/bench/floor');
  copyFileSync(`${floorDir}/run-undici-get.cjs`, 'dist/bench/floor/run-undici-get.cjs');
}
