// The blocks of manual text (src/commands/shared/command-help.ts): the Markdown that help
// texts are written in, as far as they use it, read as CommonMark reads it. The Markdown
// pages print the text itself; the man pages are made from these blocks (roff.ts).

export type Block =
  | { kind: 'paragraph'; text: string }
  | { kind: 'heading'; text: string }
  /** A `- ` item; its lines joined. */
  | { kind: 'item'; text: string }
  /** Lines indented 4 spaces, without the 4 spaces. */
  | { kind: 'code'; lines: string[] };

const isBlank = (line: string) => line.trim() === '';
const isCode = (line: string) => line.startsWith('    ');
const isItem = (line: string) => /^- /.test(line);
const isUnderline = (line: string | undefined) => line !== undefined && /^-{3,}\s*$/.test(line);

export function readBlocks(text: string): Block[] {
  const lines = text.replace(/\s+$/, '').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      i++;
    } else if (isCode(line)) {
      const code: string[] = [];
      while (i < lines.length && (isCode(lines[i]!) || isBlank(lines[i]!))) code.push(lines[i++]!.slice(4));
      while (code.length && isBlank(code[code.length - 1]!)) code.pop();
      blocks.push({ kind: 'code', lines: code });
    } else if (isUnderline(lines[i + 1]) && !isItem(line)) {
      blocks.push({ kind: 'heading', text: line.trim() });
      i += 2;
    } else {
      // a paragraph or an item: up to a blank line or the next item (an indented line
      // continues it, as in CommonMark)
      const item = isItem(line);
      const parts = [item ? line.slice(2) : line];
      i++;
      while (i < lines.length && !isBlank(lines[i]!) && !isItem(lines[i]!) && !isUnderline(lines[i])) parts.push(lines[i++]!.trim());
      blocks.push({ kind: item ? 'item' : 'paragraph', text: parts.join(' ') });
    }
  }
  return blocks;
}

/** A word that would read as Markdown's own at the start of a line (a list, a heading). */
const MARKER = /^(-|\+|\*|>|#+|\d+[.)])$/;

/**
 * Manual text with its paragraphs and `- ` items filled into lines of at most `width`
 * columns (a longer word stays whole), whatever width its source was written at; blocks
 * indented 4 spaces and headings are kept as they are. What --help, `help TOPIC`, the
 * manual and the man pages show.
 */
export function reflow(text: string, width = 80): string {
  const lines = text.replace(/\s+$/, '').split('\n');
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      if (out.length && out[out.length - 1] !== '') out.push('');
      i++;
    } else if (isCode(line)) {
      while (i < lines.length && (isCode(lines[i]!) || isBlank(lines[i]!))) out.push(lines[i++]!.trimEnd());
      while (out[out.length - 1] === '') out.pop();
      out.push('');
    } else if (isUnderline(lines[i + 1]) && !isItem(line)) {
      out.push(line.trim(), '-'.repeat(line.trim().length));
      i += 2;
    } else {
      const item = isItem(line);
      const words = [...(item ? line.slice(2) : line).split(/\s+/)];
      i++;
      while (i < lines.length && !isBlank(lines[i]!) && !isItem(lines[i]!) && !isUnderline(lines[i])) words.push(...lines[i++]!.trim().split(/\s+/));
      out.push(...fill(keepCodeSpans(words.filter(Boolean), width - 2), width, item ? '- ' : '', item ? '  ' : ''));
    }
  }
  while (out[out.length - 1] === '') out.pop();
  return `${out.join('\n')}\n`;
}

/** Words, a `code span` of several kept as one while it fits in `max` columns. */
function keepCodeSpans(words: string[], max: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const ticks = (words[i]!.match(/`/g) ?? []).length;
    let j = i;
    if (ticks % 2 === 1) {
      while (j + 1 < words.length && (words[j + 1]!.match(/`/g) ?? []).length % 2 === 0) j++;
      if (j + 1 < words.length) j++;
    }
    const span = words.slice(i, j + 1).join(' ');
    if (j > i && [...span].length <= max) {
      out.push(span);
      i = j;
    } else {
      out.push(words[i]!);
    }
  }
  return out;
}

function fill(words: string[], width: number, first: string, rest: string): string[] {
  const lines: string[][] = [[]];
  const length = (ws: string[], prefix: string) => [...prefix].length + [...ws.join(' ')].length;
  for (const word of words) {
    const line = lines[lines.length - 1]!;
    const prefix = lines.length === 1 ? first : rest;
    if (line.length && length([...line, word], prefix) > width) {
      // never start a line with what Markdown reads as a marker: take a word along
      const next = MARKER.test(word) && line.length > 1 ? [line.pop()!, word] : [word];
      lines.push(next);
    } else {
      line.push(word);
    }
  }
  return lines.map((ws, n) => (n === 0 ? first : rest) + ws.join(' '));
}
