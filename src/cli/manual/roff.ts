// The man pages (man/), written as roff with the man(7) macros directly: chamberctl(1),
// chamberctl-NOUN-VERB(1) per command, chamberctl-help-TOPIC(7) per help topic. They must
// render without a warning in `man`, `mandoc -T lint` and `groff -ww`
// (test/manual/man-pages.test.ts): text lines of at most 80 bytes, no paragraph macro
// right after a heading, every character outside ASCII as an escape.
import { readBlocks } from './manual-text.js';
import type { CommandPage, Manual, TermDoc, TopicPage } from './pages.js';

const GENERATED = '.\\" Generated from the command tree by `npm run docs:manual`; do not edit.';

/** `chamberctl-members-import.1` → its text; `date` is the page's date (YYYY-MM-DD). */
export function commandManPage(manual: Manual, page: CommandPage, date: string): string {
  const out = new Roff();
  out.header(page.name, 1, date, manual.version);
  out.section('NAME');
  out.name(page.name, page.summary);
  out.section('SYNOPSIS');
  out.line(synopsis(page.usage));
  out.section('DESCRIPTION');
  out.text(sentence(page.summary));
  if (page.help.description) out.manualText(page.help.description);
  // chamberctl(1) lists every command below, with its page
  if (page.subcommands.length && page !== manual.program) {
    out.section('COMMANDS');
    for (const sub of page.subcommands) out.tagged(`\\fB${escape(`chamberctl ${sub.path}`, true)}\\fR`, sub.summary);
  }
  if (page.arguments.length) {
    out.section('ARGUMENTS');
    for (const a of page.arguments) out.tagged(`\\fI${escape(a.term, true)}\\fR`, termText(a));
  }
  if (page.options.length) {
    out.section('OPTIONS');
    for (const o of page.options) out.tagged(optionTerm(o.term), termText(o));
  }
  if (page !== manual.program) {
    out.section('GLOBAL OPTIONS');
    for (const o of manual.globalOptions) out.tagged(optionTerm(o.term), termText(o));
  }
  if (page.jsonFields) {
    out.section('JSON FIELDS');
    out.text(`\`--json FIELDS\` (comma-separated) prints only these fields: ${page.jsonFields.map((f) => `\`${f}\``).join(', ')}.`);
  }
  if (page === manual.program) programSections(out, manual);
  out.section('EXAMPLES');
  out.code(page.help.examples.map((e) => `$ ${e}`));
  if (page.help.exitCodes?.length) {
    out.section('EXIT STATUS');
    for (const [code, when] of page.help.exitCodes) out.tagged(`\\fB${code}\\fR`, when);
    out.text('What every exit status means: `chamberctl help exit-codes`, chamberctl-help-exit-codes(7).');
  }
  out.section('SEE ALSO');
  out.references(seeAlso(manual, page));
  return out.done();
}

/** `chamberctl-help-output.7`: the topic's text. */
export function topicManPage(manual: Manual, topic: TopicPage, date: string): string {
  const out = new Roff();
  out.header(topic.name, 7, date, manual.version);
  out.section('NAME');
  out.name(topic.name, topic.summary);
  out.section('SYNOPSIS');
  out.line(`.B chamberctl help ${escape(topic.topic, true)}`);
  out.section('DESCRIPTION');
  out.manualText(topic.text);
  out.section('SEE ALSO');
  out.references([['chamberctl', 1], ...manual.topics.filter((t) => t !== topic).map((t): [string, number] => [t.name, 7])]);
  return out.done();
}

/** chamberctl(1): the commands by group, the topics, the environment and the exit status. */
function programSections(out: Roff, manual: Manual): void {
  out.section('COMMANDS');
  for (const cmd of manual.commands) out.tagged(`\\fB${escape(`chamberctl ${cmd.path}`, true)}\\fR`, `${cmd.summary}; see \`${cmd.name}\`(1).`);
  out.section('HELP TOPICS');
  for (const t of manual.topics) out.tagged(`\\fB${escape(`chamberctl help ${t.topic}`, true)}\\fR`, `${t.summary}; see \`${t.name}\`(7).`);
  const topicText = (name: string) => manual.topics.find((t) => t.topic === name)?.text;
  for (const [heading, name] of [
    ['ENVIRONMENT', 'environment'],
    ['EXIT STATUS', 'exit-codes'],
  ] as const) {
    const text = topicText(name);
    if (!text) continue;
    out.section(heading);
    out.manualText(text);
  }
}

function seeAlso(manual: Manual, page: CommandPage): Array<[string, number]> {
  const refs: Array<[string, number]> = [];
  const add = (name: string, section: number) => {
    if (!refs.some(([n]) => n === name)) refs.push([name, section]);
  };
  for (const s of page.help.seeAlso ?? []) {
    const topic = /^help (.+)$/.exec(s)?.[1];
    add(topic ? `chamberctl-help-${topic}` : `chamberctl-${s.split(' ').join('-')}`, topic ? 7 : 1);
  }
  if (page === manual.program) for (const t of manual.topics) add(t.name, 7);
  const parent = page.path.includes(' ') ? `chamberctl-${page.path.split(' ')[0]}` : page.path ? 'chamberctl' : undefined;
  if (parent) add(parent, 1);
  if (parent !== 'chamberctl' && page !== manual.program) add('chamberctl', 1);
  return refs;
}

/** `.B chamberctl members import` and the rest of the usage, its operands in italics. */
function synopsis(usage: string): string {
  const words = usage.split(' ');
  const command = words.filter((w) => /^[a-z_-]+$/.test(w));
  const rest = words.slice(command.length).map((w) => escape(w, true).replace(/([a-z][\w-]*)/gi, '\\fI$1\\fR'));
  return `.B ${escape(command.join(' '), true)}\n${rest.join(' ')}`;
}

/** `-X, --method <method>`: the flags in bold, the value in italics. */
function optionTerm(term: string): string {
  return term
    .split(/(, | )/)
    .map((part) => (part.startsWith('-') ? `\\fB${escape(part, true)}\\fR` : part.startsWith('<') || part.startsWith('[') ? `\\fI${escape(part, true)}\\fR` : part))
    .join('');
}

function termText(t: TermDoc): string {
  const extra = [t.choices ? `one of: ${t.choices.join(', ')}` : '', t.default !== undefined ? `default: ${t.default}` : ''].filter(Boolean);
  return extra.length ? `${t.description} (${extra.join('; ')})` : t.description;
}

const sentence = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

/**
 * Text for roff: `\` as `\e`, every character outside ASCII as `\[uXXXX]`, and in `code`
 * (or option-like words) `-` as `\-`, so that a copied option is the ASCII hyphen-minus.
 */
export function escape(text: string, code = false): string {
  let s = text.replace(/\\/g, '\\e');
  s = code ? s.replace(/-/g, '\\-') : s.replace(/(^|[\s(/=])(--?)(?=[a-zA-Z])/g, (_m, before: string, dashes: string) => before + dashes.replace(/-/g, '\\-'));
  return s.replace(/[^\x00-\x7f]/gu, (c) => `\\[u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
}

/**
 * Inline Markdown to roff: `code` and **strong** in bold. A word with code in it is never
 * hyphenated, so that a copied option stays whole: `\%` where the word starts (in its
 * middle, `\%` would mark a place to hyphenate instead).
 */
function inline(text: string): string {
  let out = '';
  for (const part of text.split(/(`[^`]+`|\*\*[^*]+\*\*)/)) {
    if (/^`[^`]+`$/.test(part)) {
      const start = out.search(/\S*$/); // the word the code joins, if it follows without a space
      const guard = out.startsWith('\\%', start) ? '' : '\\%';
      out = `${out.slice(0, start)}${guard}${out.slice(start)}\\fB${escape(part.slice(1, -1), true).replace(/\s+/g, ' \\%')}\\fR`;
    } else if (/^\*\*[^*]+\*\*$/.test(part)) {
      out += `\\fB${escape(part.slice(2, -2))}\\fR`;
    } else {
      out += escape(part);
    }
  }
  return out;
}

/** Writes man(7) source: macros, and text filled into lines of at most 80 bytes. */
class Roff {
  #lines: string[] = [GENERATED];
  /** No paragraph macro right after a heading (mandoc: "skipping paragraph macro"). */
  #atHeading = false;

  header(name: string, section: number, date: string, version: string): void {
    this.#lines.push(`.TH "${escape(name.toUpperCase(), true)}" "${section}" "${date}" "chamberctl ${version}" "chamberctl manual"`);
  }

  section(title: string): void {
    this.#lines.push(`.SH ${title}`);
    this.#atHeading = true;
  }

  subsection(title: string): void {
    this.#lines.push(`.SS ${inline(title)}`);
    this.#atHeading = true;
  }

  paragraph(): void {
    if (!this.#atHeading) this.#lines.push('.PP');
    this.#atHeading = false;
  }

  line(raw: string): void {
    this.#lines.push(raw);
    this.#atHeading = false;
  }

  /** A paragraph of text with inline Markdown. */
  text(text: string): void {
    this.paragraph();
    this.#fill(inline(text));
  }

  /** The NAME line: `chamberctl\-members\-import \- what it does`. */
  name(name: string, summary: string): void {
    this.#fill(`${escape(name, true)} \\- ${inline(summary)}`);
    this.#atHeading = false;
  }

  /** `.TP`: a term on its line, the text indented under it. */
  tagged(term: string, text: string): void {
    this.#lines.push('.TP', term);
    this.#fill(inline(text));
    this.#atHeading = false;
  }

  code(lines: readonly string[]): void {
    this.paragraph();
    this.#lines.push('.RS 4', '.nf');
    for (const line of lines) this.#lines.push(guardLine(escape(line, true)));
    this.#lines.push('.fi', '.RE');
  }

  manualText(text: string): void {
    for (const block of readBlocks(text)) {
      if (block.kind === 'heading') this.subsection(block.text);
      else if (block.kind === 'code') this.code(block.lines);
      else if (block.kind === 'item') {
        this.#lines.push('.IP \\(bu 2');
        this.#fill(inline(block.text));
        this.#atHeading = false;
      } else {
        this.paragraph();
        this.#fill(inline(block.text));
      }
    }
  }

  references(refs: ReadonlyArray<readonly [string, number]>): void {
    refs.forEach(([name, section], i) => this.#lines.push(`.BR \\%${escape(name, true)} (${section})${i < refs.length - 1 ? ',' : ''}`));
    this.#atHeading = false;
  }

  done(): string {
    return `${this.#lines.join('\n')}\n`;
  }

  /** Roff text filled into lines of at most 80 bytes (a longer word stays whole). */
  #fill(text: string): void {
    let line = '';
    for (const word of text.split(/\s+/).filter(Boolean)) {
      if (line && line.length + 1 + word.length > 80) {
        this.#lines.push(guardLine(line));
        line = word;
      } else {
        line = line ? `${line} ${word}` : word;
      }
    }
    if (line) this.#lines.push(guardLine(line));
  }
}

/** A text line that would read as a request (`.` or `'` first) starts with `\&`. */
const guardLine = (line: string) => (/^[.']/.test(line) ? `\\&${line}` : line);
