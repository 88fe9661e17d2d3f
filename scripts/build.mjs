// Bundles src/ into dist/ with esbuild. Dependencies stay external (they are installed
// next to the package); code splitting keeps the `--version`/`--help` path free of the
// HTTP, server, prompt and table code, which commands import lazily.
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

await build({
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
  packages: 'external',
  sourcemap: false,
  chunkNames: 'chunks/[name]-[hash]',
  define: { __CHAMBERCTL_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
});
