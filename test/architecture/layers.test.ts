import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { folderOf, importCircles, layerViolations, readImportGraph } from './import-graph.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const source = (file: string) => readFileSync(`${ROOT}/${file}`, 'utf8');

describe('the plan of imports (docs/architecture.md)', () => {
  const graph = readImportGraph(ROOT);

  it('reads the imports of every form our code uses', () => {
    expect(graph.get('src/cli/program.ts')).toContain('src/commands/chambers/register.ts'); // import … from
    expect(graph.get('src/commands/serve/register.ts')).toContain('src/commands/serve/serve.ts'); // import type, and import()
    expect(graph.get('src/contract/index.ts')!.length).toBeGreaterThan(0); // export … from
    expect(folderOf('src/storage/sqlite/storage.ts')).toBe('storage');
    expect(folderOf('src/commands/members/add.ts')).toBe('commands/members');
  });

  it('has no import that goes up or sideways', () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  it('has no circle of imports', () => {
    expect(importCircles(graph)).toEqual([]);
  });

  it('fails on a planted upward import, a sideways one and a circle', () => {
    const planted = readImportGraph(ROOT, 'src', {
      'src/storage/ids.ts': `${source('src/storage/ids.ts')}\nimport { run } from '../cli/program.js';\n`,
      'src/commands/events/list.ts': `${source('src/commands/events/list.ts')}\nimport type { MembersAddOptions } from '../members/add.js';\n`,
      'src/core/copy-worker-spawn.ts': `${source('src/core/copy-worker-spawn.ts')}\nexport const later = () => import('./context.js');\n`,
    });
    expect(layerViolations(planted).sort()).toEqual([
      'src/commands/events/list.ts imports src/commands/members/add.ts: commands/events/ may not import commands/members/',
      'src/storage/ids.ts imports src/cli/program.ts: storage/ may not import cli/',
    ]);
    expect(importCircles(planted)).toContainEqual(['src/core/context.ts', 'src/core/copy-worker-spawn.ts']);
  });

  it('gives every folder a floor', () => {
    const planted = readImportGraph(ROOT, 'src', {});
    planted.set('src/newroom/thing.ts', ['src/core/context.ts']);
    expect(layerViolations(planted)).toEqual(['newroom/ has no floor: add it to FLOORS (test/architecture/import-graph.ts) and docs/architecture.md']);
  });
});
