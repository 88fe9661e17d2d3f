#!/usr/bin/env node
// npm audit of what chamberctl ships. Every runtime dependency is bundled into dist/ from a
// devDependency (package.json has no "dependencies"), so `npm audit --omit=dev` audits
// nothing, and a plain `npm audit` mixes in the tooling that never ships (vitest, Redocly,
// autocannon...). This asks npm audit about every installed package, then keeps the
// advisories of the packages esbuild put into dist/ (dist/meta.json's inputs, by their
// node_modules folder): exit 1 when one of them is at or above --level (default high),
// exit 0 otherwise; the tooling's advisories are counted on one line, and fail nothing.
// The audit service unreachable (a registry mirror without the audit endpoint) is exit 3,
// said in one line: nothing was audited. CONTRIBUTING.md, "Auditing what ships".
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SEVERITIES = ['info', 'low', 'moderate', 'high', 'critical'];

/** The node_modules folders (`node_modules/a/node_modules/b`) of the packages in the bundle. */
export function bundledFolders(meta) {
  const folders = new Set();
  for (const input of Object.keys(meta.inputs ?? {})) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) folders.add(m[1]);
  }
  return folders;
}

/** npm audit's report (auditReportVersion 2) split into what ships and what does not. */
export function splitReport(report, folders) {
  const shipped = [];
  let tooling = 0;
  for (const [name, v] of Object.entries(report.vulnerabilities ?? {})) {
    if ((v.nodes ?? []).some((n) => folders.has(n))) {
      const titles = (v.via ?? []).filter((x) => typeof x === 'object').map((x) => `${x.title} (${x.url})`);
      const through = (v.via ?? []).filter((x) => typeof x === 'string');
      shipped.push({ name, severity: v.severity, range: v.range, why: titles.length ? titles.join('; ') : `through ${through.join(', ')}` });
    } else tooling++;
  }
  return { shipped, tooling };
}

function main(argv) {
  const at = argv.indexOf('--level');
  const level = at === -1 ? 'high' : argv[at + 1];
  if (!SEVERITIES.includes(level)) {
    console.error(`error: --level must be one of ${SEVERITIES.join(', ')}`);
    return 2;
  }
  let meta;
  try {
    meta = JSON.parse(readFileSync('dist/meta.json', 'utf8'));
  } catch {
    console.error('error: dist/meta.json is missing: npm run build first');
    return 2;
  }
  let out;
  try {
    out = execFileSync('npm', ['audit', '--json', '--include=dev'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20 });
  } catch (err) {
    out = err.stdout ?? ''; // npm audit exits 1 when it found anything
  }
  let report;
  try {
    report = JSON.parse(out);
  } catch {
    report = { message: 'npm audit printed no JSON' };
  }
  if (report.auditReportVersion !== 2) {
    console.error(`error: nothing was audited: ${report.message ?? report.error?.summary ?? 'no audit report'}`);
    return 3;
  }
  const folders = bundledFolders(meta);
  const { shipped, tooling } = splitReport(report, folders);
  const failing = shipped.filter((s) => SEVERITIES.indexOf(s.severity) >= SEVERITIES.indexOf(level));
  for (const s of shipped) console.log(`${s.severity.padEnd(8)} ${s.name} ${s.range ?? ''}: ${s.why}`);
  console.log(
    `audited the ${folders.size} packages bundled into dist/: ${shipped.length} with advisories, ${failing.length} at ${level} or above; ` +
      `${tooling} advisories in tooling that is not shipped`,
  );
  return failing.length > 0 ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
