// What a run of the built binary loads. Dependencies are bundled into dist/cli.cjs and the
// dist/chunks/*.cjs files, which bin/load-bundle.js loads lazily and lists in the file named
// by CHAMBERCTL_DEBUG_LOADS; each loaded file stands for the sources esbuild put in it
// (dist/meta.json).
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { BIN, cleanEnv } from './cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Loads {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** Source paths as esbuild names them: `src/cli/program.ts`, `node_modules/undici/index.js`. */
  sources: string[];
  /** npm packages among the sources (`undici`, `@inquirer/core`). */
  packages: Set<string>;
}

export async function runRecordingLoads(args: string[], env: Record<string, string>): Promise<Loads> {
  const dir = await mkdtemp(join(tmpdir(), 'chamberctl-loads-'));
  try {
    const log = join(dir, 'loads.txt');
    await writeFile(log, '');
    const r = await execa(process.execPath, [BIN, ...args], {
      env: { ...cleanEnv(), ...env, CHAMBERCTL_DEBUG_LOADS: log },
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
      stripFinalNewline: false,
    });
    const meta = JSON.parse(readFileSync(join(ROOT, 'dist', 'meta.json'), 'utf8')) as {
      outputs: Record<string, { inputs: Record<string, unknown> }>;
    };
    const files = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
    const sources = files.flatMap((f) => {
      const rel = relative(ROOT, f).replace(/\\/g, '/');
      // a bundle file stands for its inputs; a module outside the bundle for itself
      return rel.startsWith('node_modules/') ? [rel] : Object.keys(meta.outputs[rel]?.inputs ?? {});
    });
    const packages = new Set(
      sources
        .filter((s) => s.startsWith('node_modules/'))
        .map((s) => {
          const [scope, name] = s.slice('node_modules/'.length).split('/');
          return scope!.startsWith('@') ? `${scope}/${name}` : scope!;
        }),
    );
    return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr), sources, packages };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
