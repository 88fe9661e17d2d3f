// The manual (docs/manual/) and the man pages (man/) are what `npm run docs:manual` makes
// of the command tree now, as test/openapi-client checks v2.ts against the OpenAPI
// document; every command has its pages; and package.json installs the man pages.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { commandPath, visibleCommandsBelow } from '../../src/cli/command-tree.js';
import { manPageDate, manualFiles, MAN_DIR, MANUAL_DIR } from '../../src/cli/manual/generate.js';
import { buildProgram } from '../../src/cli/program.js';
import { fakeContext } from '../helpers/fake-context.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; man?: string[]; files: string[] };
const committed = (path: string) => (existsSync(join(ROOT, path)) ? readFileSync(join(ROOT, path), 'utf8') : undefined);
const listed = (dir: string) => (existsSync(join(ROOT, dir)) ? readdirSync(join(ROOT, dir)).map((f) => `${dir}/${f}`) : []);

// a man page's date is the day its text last changed: the committed one
const files = manualFiles(pkg.version, (path) => manPageDate(committed(path) ?? '') ?? 'no date');
const STALE = 'is stale: run `npm run docs:manual` and commit what it changes';

describe('docs/manual and man/', () => {
  it('hold no file that the command tree does not make, and miss none', () => {
    const present = [...listed(MANUAL_DIR), ...listed(MAN_DIR)].sort();
    expect(present, `docs/manual or man/ ${STALE}`).toEqual([...files.keys()].sort());
  });

  it.each([...files.keys()])('%s is what the command tree makes of it', (path) => {
    expect(committed(path), `${path} ${STALE}`).toBe(files.get(path));
  });

  it('give every command a manual page and a man page, and every topic both', () => {
    const program = buildProgram(fakeContext(), pkg.version);
    const commands = visibleCommandsBelow(program).map((c) => commandPath(c));
    expect(commands).toEqual(expect.arrayContaining(['members import', 'clients rotate', 'serve', 'login', 'api']));
    for (const path of commands) {
      const name = `chamberctl-${path.split(' ').join('-')}`;
      expect(files.has(`${MANUAL_DIR}/${name}.md`), `no manual page for chamberctl ${path}`).toBe(true);
      expect(files.has(`${MAN_DIR}/${name}.1`), `no man page for chamberctl ${path}`).toBe(true);
    }
    for (const topic of ['exit-codes', 'environment', 'output', 'csv-format', 'api-versions', 'offline']) {
      expect(files.has(`${MANUAL_DIR}/help-${topic}.md`), topic).toBe(true);
      expect(files.has(`${MAN_DIR}/chamberctl-help-${topic}.7`), topic).toBe(true);
    }
    expect(files.has(`${MANUAL_DIR}/README.md`)).toBe(true);
    expect(files.has(`${MAN_DIR}/chamberctl.1`)).toBe(true);
  });

  it('the index names every command and topic, one line each', () => {
    const index = files.get(`${MANUAL_DIR}/README.md`)!;
    for (const path of [...files.keys()].filter((p) => p.startsWith(`${MANUAL_DIR}/`) && !p.endsWith('/README.md'))) {
      const file = path.slice(MANUAL_DIR.length + 1);
      expect(index.split('\n').filter((l) => l.includes(`](${file})`)), file).toHaveLength(1);
    }
  });
});

describe('package.json', () => {
  it('lists every man page in "man", so that npm install -g installs them', () => {
    expect(pkg.man, `"man" ${STALE}`).toEqual([...files.keys()].filter((p) => p.startsWith(`${MAN_DIR}/`)).sort());
  });

  it('ships man/', () => {
    expect(pkg.files).toContain('man/');
  });
});
