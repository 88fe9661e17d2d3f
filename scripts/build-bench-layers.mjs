// The servers of bench:layers (bench/layers.ts), after `npm run build`: bench/layers/serve.ts
// built once as it is (dist/bench/layers/all.js) and once per layer with that layer left out
// (dist/bench/layers/<layer>.js); and bench:server's same-work floor with a source map
// (dist/bench/layers/floor.js), whose profile bench:layers sets beside serve's.
//
// Why a build and not a switch: a layer left out must cost nothing at all, and the product
// must offer no way to run without its token check or its deadline. So the product's sources
// hold no switch; here, one exported function of one file of src/ is cut out of that file as
// it is bundled, and the file exports a stand-in from bench/layers/off/ instead (each says
// what it leaves out). The build fails when the function is no longer there. The product's
// own build (scripts/build.mjs) never sees this.
//
// The other layers are runtime options of the same build (bench/layers/serve.ts): the line
// per request (--quiet, as `serve --quiet`), the logger altogether (--no-logger), and the
// metrics hooks (--metrics, as `serve --metrics`).
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { redactPathsParsedOnce } from './redact-paths-parsed-once.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** Layer: [the file, the exported function left out]; the stand-in is bench/layers/off/<layer>.ts. */
export const LAYERS = {
  'token-check': ['src/server/auth/bearer.ts', 'requireBearer'],
  'query-check': ['src/server/routes/query.ts', 'parseVersionQuery'],
  deadline: ['src/server/deadline.ts', 'answerWithinDeadline'],
  'request-gate': ['src/server/request-gate.ts', 'useRequestGate'],
  'store-proxy': ['src/storage/unavailable.ts', 'reportingUnavailable'],
};

/** An esbuild plugin: `file` without its top-level `export function name`, exporting `standIn`'s instead. */
function leaveOut(file, name, standIn) {
  const path = resolve(file);
  return {
    name: `leave-out-${name}`,
    setup(b) {
      b.onLoad({ filter: new RegExp(`${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`) }, () => {
        const text = readFileSync(path, 'utf8');
        // from the declaration to the first line that is a lone `}`: the end of a top-level function
        const cut = new RegExp(`^export (async )?function ${name}\\b[\\s\\S]*?^}$`, 'm');
        if (!cut.test(text)) throw new Error(`${file} has no top-level \`export function ${name}\`: see scripts/build-bench-layers.mjs`);
        return { contents: `${text.replace(cut, '')}\nexport { ${name} } from ${JSON.stringify(resolve(standIn))};\n`, loader: 'ts' };
      });
    },
  };
}

const options = {
  entryPoints: ['bench/layers/serve.ts'],
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: `node${createRequire(import.meta.url)('../bin/supported-node.js').OLDEST}`, // as the product's (bin/supported-node.js)
  define: { __CHAMBERCTL_VERSION__: JSON.stringify(pkg.version) },
  // the product's own edits of its dependencies (scripts/build.mjs) that reach serve's code
  plugins: [redactPathsParsedOnce],
  // a profile's positions are read back to src/ files (bench/lib/profile-by-source.ts)
  sourcemap: true,
  logLevel: 'warning',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
};

await build({ ...options, outfile: 'dist/bench/layers/all.js' });
await build({ ...options, entryPoints: ['bench/same-work-floor.ts'], outfile: 'dist/bench/layers/floor.js' });
for (const [layer, [file, name]] of Object.entries(LAYERS)) {
  await build({ ...options, outfile: `dist/bench/layers/${layer}.js`, plugins: [...options.plugins, leaveOut(file, name, `bench/layers/off/${layer}.ts`)] });
}
