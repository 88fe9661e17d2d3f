// The plan of imports of src/ (docs/architecture.md): each folder sits on a floor, and a
// file may import from its own folder or from a lower floor, never from its own floor's
// other folders or from above; and no chain of imports, of any kind (types and lazy
// imports included), leads back to where it started.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/** Floors, lowest first. A folder of src/ (or of src/commands/) that is not here is an error. */
export const FLOORS: string[][] = [
  ['contract', 'files'],
  ['core'],
  ['storage', 'config'],
  ['client'],
  ['output'],
  ['snapshot'],
  ['server'],
  ['import', 'sync', 'completion', 'team'],
  ['commands/shared'],
  ['commands/api', 'commands/auth', 'commands/chambers', 'commands/completion', 'commands/events', 'commands/members', 'commands/serve', 'commands/snapshot', 'commands/sync', 'commands/clients', 'commands/audit'],
  ['cli'],
];

/** file (relative to the root, e.g. src/cli/main.ts) → the files of src/ it imports. */
export type ImportGraph = Map<string, string[]>;

// import … from '…', import '…', export … from '…', import('…'): the forms our code uses
// (verbatimModuleSyntax: a type import is written `import type` and still counts here).
const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** The imports between the files of `dir` (a folder of `root`); `overlay` replaces a file's text. */
export function readImportGraph(root: string, dir = 'src', overlay: Record<string, string> = {}): ImportGraph {
  const graph: ImportGraph = new Map();
  const walk = (d: string): string[] =>
    readdirSync(join(root, d), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith('.ts') ? [join(d, e.name)] : []));
  for (const file of walk(dir)) {
    const text = overlay[file] ?? readFileSync(join(root, file), 'utf8');
    const targets: string[] = [];
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3]!;
      if (!spec.startsWith('.')) continue; // a package or a node built-in
      targets.push(normalize(join(dirname(file), spec)).replace(/\.js$/, '.ts'));
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The folder a file belongs to: src/storage/sqlite/x.ts → storage; src/commands/members/x.ts → commands/members. */
export function folderOf(file: string, dir = 'src'): string {
  const parts = relative(dir, file).split(/[\\/]/);
  return parts[0] === 'commands' && parts.length > 2 ? `commands/${parts[1]}` : parts.length > 1 ? parts[0]! : '.';
}

/** Every import that goes up or sideways between folders, and every folder without a floor. */
export function layerViolations(graph: ImportGraph, dir = 'src'): string[] {
  const floor = new Map(FLOORS.flatMap((folders, i) => folders.map((f) => [f, i] as const)));
  const problems = new Set<string>();
  for (const [file, targets] of graph) {
    const from = folderOf(file, dir);
    if (!floor.has(from)) problems.add(`${from}/ has no floor: add it to FLOORS (test/architecture/import-graph.ts) and docs/architecture.md`);
    for (const target of targets) {
      const to = folderOf(target, dir);
      if (to === from || !floor.has(from) || !floor.has(to)) continue;
      if (floor.get(to)! >= floor.get(from)!) problems.add(`${file} imports ${target}: ${from}/ may not import ${to}/`);
    }
  }
  return [...problems];
}

/** Each circle of imports once, as the files along it (Tarjan's strongly connected components). */
export function importCircles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)!.includes(v)) circles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return circles;
}
