// The help texts (each noun's help.ts, the program's, the topics'): one for every command
// and nothing else, exit codes and cross-references that hold, and manual text that reads
// the same in a terminal, on GitHub and in man (src/commands/shared/command-help.ts).
import { describe, expect, it } from 'vitest';
import { commandPath, visibleCommandsBelow } from '../../src/cli/command-tree.js';
import { COMMAND_HELP, TOPIC_TEXTS } from '../../src/cli/help-texts.js';
import { needsHelpTexts, TOPICS } from '../../src/cli/help-topics.js';
import { buildProgram } from '../../src/cli/program.js';
import { fakeContext } from '../helpers/fake-context.js';

const program = buildProgram(fakeContext(), '0.0.0-test');
const commands = visibleCommandsBelow(program);
const paths = ['', ...commands.map(commandPath)];
const leaves = commands.filter((c) => c.commands.length === 0).map(commandPath);

describe('the help of the commands', () => {
  it('exists for every visible command, and only for them', () => {
    expect(Object.keys(COMMAND_HELP).sort()).toEqual([...paths].sort());
  });

  it.each(paths.map((p) => [p || 'chamberctl', p] as const))('%s has examples that run chamberctl', (_name, path) => {
    const help = COMMAND_HELP[path]!;
    expect(help.examples.length).toBeGreaterThan(0);
    for (const example of help.examples) expect(example).toMatch(/\bchamberctl\b/);
  });

  it.each(leaves)('%s declares its exit codes: 0 first, each once, ascending', (path) => {
    const codes = (COMMAND_HELP[path]!.exitCodes ?? []).map(([code]) => code);
    expect(codes[0], 'no exit code 0').toBe(0);
    expect(codes).toEqual([...new Set(codes)].sort((a, b) => a - b));
    for (const [, when] of COMMAND_HELP[path]!.exitCodes!) expect(when.trim()).not.toBe('');
  });

  it('sees also only commands and topics that exist', () => {
    for (const [path, help] of Object.entries(COMMAND_HELP)) {
      for (const ref of help.seeAlso ?? []) {
        const topic = /^help (.+)$/.exec(ref)?.[1];
        if (topic) expect(Object.keys(TOPICS), `${path}: ${ref}`).toContain(topic);
        else expect(paths, `${path}: ${ref}`).toContain(ref);
      }
    }
  });

  it('every topic has its text', () => {
    expect(Object.keys(TOPIC_TEXTS).sort()).toEqual(Object.keys(TOPICS).sort());
  });
});

/** Problems of manual text that a terminal, Markdown or roff would show differently. */
function textProblems(text: string): string[] {
  const problems: string[] = [];
  const lines = text.split('\n');
  let inCode = false;
  lines.forEach((line, i) => {
    const before = lines[i - 1] ?? '';
    const code = line.startsWith('    ') && (inCode || before.trim() === '');
    if (line.startsWith('    ') && !code && !/^(- |  )/.test(before)) problems.push(`line ${i + 1} is indented 4 spaces right under text, so Markdown joins it to the paragraph: "${line}"`);
    inCode = code || (inCode && line.trim() === '');
    if (code) return;
    if ([...line].length > 80) problems.push(`line ${i + 1} is longer than 80 columns: "${line}"`);
    if (/^-{3,}$/.test(line) && (lines[i - 2] ?? '').trim() !== '') problems.push(`the heading above line ${i + 1} needs a blank line before it`);
    if (/^(#|\d+\. |\+ |\* |> )/.test(line)) problems.push(`line ${i + 1} starts as Markdown would read it otherwise: "${line}"`);
  });
  // a `code` span may run over a line break, never over a paragraph
  for (const block of text.split(/\n\s*\n/)) {
    if (block.startsWith('    ')) continue;
    if ((block.match(/`/g) ?? []).length % 2 !== 0) problems.push(`a \` is not closed in: "${block.slice(0, 60)}..."`);
    else if (/<|\*/.test(block.replace(/`[^`]*`/g, '').replace(/\*\*[^*]+\*\*/g, ''))) problems.push(`a < or * outside \`code\` in: "${block.slice(0, 60)}..."`);
  }
  return problems;
}

describe('manual text', () => {
  it.each(Object.entries(COMMAND_HELP).filter(([, h]) => h.description))('the description of %s', (_path, help) => {
    expect(textProblems(help.description!)).toEqual([]);
  });

  it.each(Object.entries(TOPIC_TEXTS))('the topic %s', (_topic, text) => {
    expect(textProblems(text)).toEqual([]);
  });

  it('the check finds what it looks for', () => {
    expect(textProblems('a paragraph\n    joined to it')).toHaveLength(1);
    expect(textProblems(`${'x'.repeat(81)}`)).toHaveLength(1);
    expect(textProblems('see <name> here')).toHaveLength(1);
    expect(textProblems('an `open span\n\nand more')).toHaveLength(1);
    expect(textProblems('text\n\n    a block\n\n    more of it\n\n- item\n  continued `code <ok>`')).toEqual([]);
  });
});

describe('which command lines load the texts of help', () => {
  it.each([
    [[], true],
    [['--help'], true],
    [['chambers', 'list', '-h'], true],
    [['members'], true],
    [['--profile', 'x', 'members'], true],
    [['help', 'exit-codes'], true],
    [['help'], true],
    [['members', 'list', 'ch_1'], false],
    [['chambers', 'list', '--json'], false],
    [['serve', '--port', '0'], false],
    [['__complete', '--', 'members', ''], false],
    [['api', '/v2/chambers', '--', '--help'], false],
  ])('%j: %s', (argv, expected) => {
    expect(needsHelpTexts(argv, program)).toBe(expected);
  });
});
