// Bundles src/ into dist/ with esbuild. Dependencies stay external (they are installed
// next to the package); code splitting keeps the `--version`/`--help` path free of the
// HTTP, server, prompt and table code, which commands import lazily.
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

rmSync('dist', { recursive: true, force: true }); // no stale chunks from earlier builds

const result = await build({
  entryPoints: {
    cli: 'src/cli/main.ts',
    // Benchmarks (npm run bench:*) are bundled the same way, one entry per bench/*.ts.
    ...Object.fromEntries(
      (existsSync('bench') ? readdirSync('bench') : [])
        .filter((f) => f.endsWith('.ts'))
        .map((f) => [`bench/${f.slice(0, -3)}`, `bench/${f}`]),
    ),
  },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Every JavaScript dependency is bundled: resolving and loading hundreds of small module
  // files dominated start-up, and an installed package then depends on better-sqlite3 alone
  // (a global install resolves dependencies afresh, ignoring our lockfile and overrides, and
  // could pull a transitive version that needs Node 22). The native SQLite binding stays
  // external, and so does the bench-only autocannon. Chunks load lazily per command.
  external: ['better-sqlite3', 'autocannon'],
  // CommonJS dependencies call require() for node built-ins.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  sourcemap: false,
  chunkNames: 'chunks/[name]-[hash]',
  define: { __CHAMBERCTL_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
  metafile: true,
});

// Which sources each output file holds: tests use it to tell which dependencies a command
// loaded (e.g. that `--help` loads no HTTP code) now that dependencies are bundled.
writeFileSync('dist/meta.json', JSON.stringify(result.metafile));
