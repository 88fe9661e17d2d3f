// Manual text as the man pages read it (readBlocks) and as every form of help shows it (reflow).
import { describe, expect, it } from 'vitest';
import { readBlocks, reflow } from '../../src/cli/manual/manual-text.js';

describe('readBlocks', () => {
  it('reads paragraphs, items, headings and blocks as CommonMark does', () => {
    const text = 'A paragraph\nover two lines.\n\nTitle\n-----\n\n- an item\n  continued\n- another\n\n    code  kept\n\n    as it is\n\nthe end\n    joined, not code';
    expect(readBlocks(text)).toEqual([
      { kind: 'paragraph', text: 'A paragraph over two lines.' },
      { kind: 'heading', text: 'Title' },
      { kind: 'item', text: 'an item continued' },
      { kind: 'item', text: 'another' },
      { kind: 'code', lines: ['code  kept', '', 'as it is'] },
      { kind: 'paragraph', text: 'the end joined, not code' },
    ]);
  });
});

describe('reflow', () => {
  it('fills paragraphs and items to the width, and keeps blocks and headings', () => {
    const text = 'one two three four five six\n\n- seven eight nine ten\n\n    a   block   line that is long\n\nHead\n----\n';
    expect(reflow(text, 12)).toBe('one two\nthree four\nfive six\n\n- seven\n  eight nine\n  ten\n\n    a   block   line that is long\n\nHead\n----\n');
  });

  it('never starts a line with a list marker, and keeps a `code span` whole while it fits', () => {
    expect(reflow('aaaa bbbb - cc', 10)).toBe('aaaa\nbbbb - cc\n');
    expect(reflow('see `chamberctl help output` now', 26)).toBe('see\n`chamberctl help output`\nnow\n');
  });

  it('leaves text that fits as it is', () => {
    const text = 'A line.\n\n- an item\n\n    code\n';
    expect(reflow(text)).toBe(text);
  });
});
