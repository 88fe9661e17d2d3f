// The shell examples of README.md and docs/ (CONTRIBUTING.md, "Examples that run"): every
// ```console block is a transcript, `$ ` lines the commands and the lines after each what it
// prints; a block marked `<!-- example: NAME -->` is run by test/e2e/doc-examples.test.ts
// and what it prints is compared with what the page shows, and one marked
// `<!-- not run: REASON -->` is not. This file finds and parses the blocks, and masks what
// differs from run to run (times, new ids, secrets, ports, the operator's user@host).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The pages whose console blocks are examples: README.md and docs/ but the generated manual. */
export function examplePages(root: string): string[] {
  const pages = ['README.md'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (path !== 'docs/manual') walk(path);
      } else if (entry.name.endsWith('.md')) pages.push(path);
    }
  };
  walk('docs');
  return pages.sort();
}

export interface Step {
  /** The command as bash reads it (continuation lines and here-documents included). */
  command: string;
  /** What the page shows it printing, one entry per line. */
  output: string[];
}

export interface ConsoleBlock {
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** `example`: run; `not run`: shown only (`reason` says why); `unmarked`: an error of the page. */
  kind: 'example' | 'not run' | 'unmarked';
  /** The example's session: blocks of one page with the same name run in one shell, in order. */
  session?: string;
  /** `(no server)`: the session starts without the test's `serve` (its blocks start their own). */
  noServer?: boolean;
  reason?: string;
  steps: Step[];
}

const MARKER = /^<!--\s*(example|not run):\s*(.*?)\s*-->\s*$/;
const EXAMPLE = /^([a-z0-9][a-z0-9-]*)(?:\s+\(([^)]*)\))?$/;
const OPTIONS = new Set(['no server']);

/** Every ```console block of a page, with its marker (the line right above its fence). */
export function consoleBlocks(page: string, text: string): ConsoleBlock[] {
  const lines = text.split('\n');
  const blocks: ConsoleBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(\s*)(```+|~~~+)(.*)$/.exec(lines[i]!);
    if (!fence) continue;
    const [, indent = '', ticks = '', info = ''] = fence;
    let end = i + 1;
    while (end < lines.length && !new RegExp(`^\\s*${ticks}\\s*$`).test(lines[end]!)) end++;
    if (info.trim() === 'console') {
      const body = lines.slice(i + 1, end).map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l));
      const marker = MARKER.exec((lines[i - 1] ?? '').trim());
      const block: ConsoleBlock = { page, line: i + 1, kind: 'unmarked', steps: transcript(body, `${page}:${i + 1}`) };
      if (marker?.[1] === 'not run') {
        block.kind = 'not run';
        block.reason = marker[2];
        if (!block.reason) throw new Error(`${page}:${i}: "not run" needs a reason`);
      } else if (marker?.[1] === 'example') {
        const m = EXAMPLE.exec(marker[2]!);
        if (!m) throw new Error(`${page}:${i}: bad example marker "${marker[2]}": want NAME or NAME (OPTION, ...)`);
        const options = (m[2] ?? '').split(',').map((o) => o.trim()).filter(Boolean);
        for (const o of options) if (!OPTIONS.has(o)) throw new Error(`${page}:${i}: unknown example option "${o}"`);
        block.kind = 'example';
        block.session = m[1];
        block.noServer = options.includes('no server');
      }
      blocks.push(block);
    }
    i = end;
  }
  return blocks;
}

export function pageBlocks(root: string, page: string): ConsoleBlock[] {
  return consoleBlocks(page, readFileSync(join(root, page), 'utf8'));
}

/**
 * A console block's lines as steps: a `$ ` line starts a command, which goes on over lines
 * ending in `\` and over a here-document's lines up to its delimiter; the other lines are
 * what the command before them prints.
 */
export function transcript(body: string[], where: string): Step[] {
  const steps: Step[] = [];
  for (let i = 0; i < body.length; i++) {
    const line = body[i]!;
    if (!line.startsWith('$ ')) {
      if (steps.length === 0) {
        if (line.trim() === '') continue;
        throw new Error(`${where}: output before the first command: ${line}`);
      }
      steps.at(-1)!.output.push(line);
      continue;
    }
    const command = [line.slice(2)];
    while (/\\$/.test(command.at(-1)!) && i + 1 < body.length) command.push(body[++i]!);
    const heredoc = /<<-?\s*(['"]?)([A-Za-z_]\w*)\1/.exec(command.join('\n'));
    if (heredoc) {
      const delimiter = heredoc[2]!;
      while (i + 1 < body.length) {
        const next = body[++i]!;
        command.push(next);
        if (next.trim() === delimiter) break;
      }
      if (command.at(-1)!.trim() !== delimiter) throw new Error(`${where}: here-document without its ${delimiter} line`);
    }
    steps.push({ command: command.join('\n'), output: [] });
  }
  return steps;
}

/** The ports a session's commands name (`127.0.0.1:N`, `localhost:N`, `--port N`), but 0. */
export function portsIn(commands: string[]): string[] {
  const ports = new Set<string>();
  for (const c of commands) {
    for (const m of c.matchAll(/(?:127\.0\.0\.1|localhost):(\d{2,5})\b|--port[= ](\d{2,5})\b/g)) ports.add((m[1] ?? m[2])!);
  }
  return [...ports];
}

/** `text` with each port of `map` (as `127.0.0.1:N`, `localhost:N`, `--port N`) replaced. */
export function mapPorts(text: string, map: Map<string, string>): string {
  return text.replace(/((?:127\.0\.0\.1|localhost):|--port[= ])(\d{2,5})\b/g, (all, before: string, port: string) =>
    map.has(port) ? `${before}${map.get(port)}` : all,
  );
}

const ID = /\b(?:(ch|mb|ev|chg)_[A-Za-z0-9]{16}|cl(?=[A-Za-z0-9]{14}\b)(?=[a-z]*[A-Z0-9])[A-Za-z0-9]{14})\b/g;

/**
 * Masks what differs from run to run, the same way on both sides: times and dates, ids that
 * the commands do not name themselves (numbered in order of appearance, so the same id shown
 * twice must be the same id twice), secrets and tokens, a duration in ms or s.
 */
export class Masker {
  private readonly ids = new Map<string, string>();
  private readonly counts = new Map<string, number>();
  constructor(private readonly literal: Set<string>) {}

  line(text: string): string {
    return text
      .replace(/\b\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:\d\d)?/g, '<time>')
      .replace(/\b\d{4}-\d\d-\d\d \d\d:\d\d(?::\d\d)?(?: UTC)?/g, '<time>')
      .replace(/\b\d{4}-\d\d-\d\d\b/g, '<date>')
      .replace(/\b\d{8}T\d{6}Z\b/g, '<time>') // a backup's name (snapshot import --replace)
      .replace(ID, (id, prefix: string | undefined) => {
        if (this.literal.has(id)) return id;
        let name = this.ids.get(id);
        if (name === undefined) {
          const kind = prefix ?? 'cl';
          const n = (this.counts.get(kind) ?? 0) + 1;
          this.counts.set(kind, n);
          name = `${kind}${prefix ? '_' : ''}<${n}>`;
          this.ids.set(id, name);
        }
        return name;
      })
      .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, '<uuid>')
      .replace(/\b[A-Za-z0-9]{40}\b/g, '<secret>')
      .replace(/\b[A-Za-z0-9_-]{43}\b/g, '<token>')
      .replace(/\b\d+(?:\.\d+)?\s?(?:ms|s)\b/g, '<duration>')
      .replace(/("(?:elapsed_seconds|rows_per_second)":)[\d.]+/g, '$1<n>')
      .replace(/^((?:elapsed_seconds|rows_per_second)\t)[\d.]+$/, '$1<n>');
  }
}

/** Every id of the forms above that the commands name literally (those stay as they are). */
export function literalIds(commands: string[]): Set<string> {
  return new Set(commands.flatMap((c) => [...c.matchAll(ID)].map((m) => m[0])));
}
