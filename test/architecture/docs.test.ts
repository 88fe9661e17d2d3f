// The docs a clone can open (docs/architecture.md, "Where the docs live"): nothing in src/,
// test/, docs/ or README.md cites the product team's contract files, which live outside the
// repository; every relative Markdown link in README.md and docs/ (the guides and operations
// pages included) names a file that exists and, with an anchor, a heading of it; every
// `README.md#…` or `docs/….md#…` that a comment in src/ or test/ cites names a heading too;
// and every ```console block of those pages is marked either to run or not to run, with the
// reason (CONTRIBUTING.md, "Examples that run").
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { consoleBlocks, examplePages } from '../helpers/doc-examples.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SELF = 'test/architecture/docs.test.ts';

// Spelt in pieces, so that this file does not cite them itself.
const OUTSIDE = ['decisions', 'cli'].map((name) => `${name}.md`).concat(['shared' + '/spec']);
const citesOutside = (text: string): string[] => OUTSIDE.filter((name) => text.includes(name));

function filesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) found.push(...filesUnder(path));
    else if (entry.isFile()) found.push(path);
  }
  return found;
}
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const isText = (text: string) => !text.includes('\u0000');

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // a link's text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Outside fenced code blocks only. */
function prose(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const open = /^\s*(```|~~~)/.exec(line)?.[1];
    if (open && (fence === undefined || fence === open)) {
      fence = fence === undefined ? open : undefined;
      continue;
    }
    if (fence === undefined) lines.push(line);
  }
  return lines;
}

/** The anchors of a Markdown text's headings, a repeated one with GitHub's `-1`, `-2`, ... */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Relative link targets of a Markdown text (not URLs, not in code). */
function relativeLinks(markdown: string): string[] {
  const links: string[] = [];
  for (const line of prose(markdown)) {
    const text = line.replace(/`[^`]*`/g, '');
    for (const m of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push(target);
    }
  }
  return links;
}

/** Why a link from `from` (a path from the root) does not resolve, or undefined when it does. */
function brokenLink(from: string, target: string, readFile: (file: string) => string | undefined): string | undefined {
  const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
  const file = pathPart === '' ? from : normalize(join(dirname(from), decodeURIComponent(pathPart)));
  if (file.startsWith('..')) return `${from}: ${target} leaves the repository`;
  const text = readFile(file);
  if (text === undefined) return `${from}: ${target}: no file ${file}`;
  if (anchor === undefined) return undefined;
  if (!file.endsWith('.md')) return `${from}: ${target}: an anchor in a file that is not Markdown`;
  return anchorsOf(text).has(anchor) ? undefined : `${from}: ${target}: no heading #${anchor} in ${file}`;
}

const readRepoFile = (file: string): string | undefined => {
  const path = join(ROOT, file);
  if (!existsSync(path)) return undefined;
  return statSync(path).isDirectory() ? '' : read(file);
};

/** A link's problem, or undefined: the file and the heading it names exist. */
const broken = (from: string, target: string) => brokenLink(from, target, readRepoFile);

/** README.md and every page under docs/ but the generated manual. */
const MARKDOWN = examplePages(ROOT);

describe('the docs a clone can open', () => {
  it('no file under src/, test/, docs/ or README.md cites the contract files outside the repository', () => {
    const files = ['README.md', ...filesUnder('src'), ...filesUnder('test'), ...filesUnder('docs')];
    expect(files.length).toBeGreaterThan(100);
    const citing = files.flatMap((file) => {
      const text = read(file);
      return isText(text) ? citesOutside(text).map((name) => `${file} cites ${name}`) : [];
    });
    expect(citing).toEqual([]);
  });

  it('every relative link in README.md and docs/ names a file, and a heading of it, that exist', () => {
    expect(MARKDOWN).toEqual(expect.arrayContaining(['README.md', 'docs/server-behaviour.md', 'docs/guides/team-access.md', 'docs/operations/serve.md']));
    const links = MARKDOWN.flatMap((from) => relativeLinks(read(from)).map((target) => [from, target] as const));
    expect(links.length).toBeGreaterThan(50);
    expect(links.map(([from, target]) => broken(from, target)).filter(Boolean)).toEqual([]);
  });

  it('every README.md#… or docs/….md#… cited in src/ and test/ names a heading that exists', () => {
    const cited = [...filesUnder('src'), ...filesUnder('test')].flatMap((file) => {
      const text = read(file);
      if (!isText(text) || file === SELF) return []; // this file's fixtures cite made-up headings
      return [...text.matchAll(/\b((?:docs\/[\w./-]+?|README)\.md)#([\w-]+)/g)].map((m) => [file, `${m[1]}#${m[2]}`] as const);
    });
    expect(cited.length).toBeGreaterThan(50);
    expect(cited.map(([file, target]) => broken('x.md', target)?.replace('x.md', file)).filter(Boolean)).toEqual([]);
  });

  it('keeps README.md a front door: at most 250 lines, opening with the two commands of a fresh machine', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(250); // what grows goes to a guide or CONTRIBUTING.md
    expect(readme).toMatch(/^```sh\nnpm ci && npm run demo +#.*\nnpm test +#.*\n```$/m);
  });

  it('marks every ```console block of README.md and docs/ to run or not to run, with the reason', () => {
    const blocks = MARKDOWN.flatMap((page) => consoleBlocks(page, read(page)));
    expect(blocks.filter((b) => b.kind === 'example').length).toBeGreaterThan(10);
    expect(blocks.filter((b) => b.kind === 'unmarked').map((b) => `${b.page}:${b.line}: a console block without <!-- example: NAME --> or <!-- not run: REASON -->`)).toEqual([]);
  });

  it('makes anchors as GitHub does, and catches a planted citation and broken links', () => {
    expect(slug('The embedded server: `chamberctl serve`')).toBe('the-embedded-server-chamberctl-serve');
    expect(slug('Snapshots: `chamberctl snapshot export|import`')).toBe('snapshots-chamberctl-snapshot-exportimport');
    expect(slug('What the token check costs (team access)')).toBe('what-the-token-check-costs-team-access');
    expect(slug('snake_case and dash-ed, 2.0!')).toBe('snake_case-and-dash-ed-20');
    expect([...anchorsOf('# A\n## Logs\n```\n## Not a heading\n```\n### Logs\n')]).toEqual(['a', 'logs', 'logs-1']);
    expect(citesOutside(`see ../${'shared'}/spec/${'decisions'}.md`)).toHaveLength(2);
    expect(relativeLinks('[a](#x) [b](docs/y.md#z) [c](https://e.org) `[d](#code)`')).toEqual(['#x', 'docs/y.md#z']);
    const files: Record<string, string> = { 'README.md': '## Paging\n', 'docs/p.md': '# P\n## Tokens\n' };
    const readFake = (file: string) => files[file];
    expect(brokenLink('docs/p.md', '../README.md#paging', readFake)).toBeUndefined();
    expect(brokenLink('docs/p.md', '#tokens', readFake)).toBeUndefined();
    expect(brokenLink('docs/p.md', '#token', readFake)).toBe('docs/p.md: #token: no heading #token in docs/p.md');
    expect(brokenLink('README.md', 'docs/q.md', readFake)).toBe('README.md: docs/q.md: no file docs/q.md');
    expect(consoleBlocks('p.md', '<!-- example: a (no server) -->\n```console\n$ echo a \\\n  b\na b\n```\n```console\n$ true\n```\n')).toMatchObject([
      { kind: 'example', session: 'a', noServer: true, steps: [{ command: 'echo a \\\n  b', output: ['a b'] }] },
      { kind: 'unmarked' },
    ]);
  });
});
