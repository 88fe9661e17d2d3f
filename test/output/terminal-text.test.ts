import { describe, expect, it } from 'vitest';
import { jsonText, terminalLine, terminalText } from '../../src/core/terminal-text.js';
import { oneLine } from '../../src/output/format.js';

// What a terminal would take as a command is shown inert, as gh's asciisanitizer does.

describe('terminal text', () => {
  it('writes every C0 control but tab and newline, DEL and every C1 control in caret notation', () => {
    expect(terminalText('a\u001b]52;c;ZXZpbA==\u0007b')).toBe('a^[]52;c;ZXZpbA==^Gb');
    expect(terminalText('\u0000\u0001\u001f\u007f')).toBe('^@^A^_^?');
    expect(terminalText('\u0080\u009b2J\u009f')).toBe('M-^@M-^[2JM-^_');
    expect(terminalText('x\ty\nz\r')).toBe('x\ty\nz^M');
    expect(terminalText('café ✓ \u00a0')).toBe('café ✓ \u00a0'); // U+00A0 onward is text
    for (let c = 0; c < 0xa0; c++) {
      const shown = terminalText(String.fromCharCode(c));
      if (c === 9 || c === 10 || (c >= 0x20 && c < 0x7f)) expect(shown).toBe(String.fromCharCode(c));
      else expect(shown).toMatch(/^(M-)?\^[@-_?]$/);
    }
  });

  it('a line shows a newline as ^J, so it cannot fake a line', () => {
    expect(terminalLine('bad\nerror: fake')).toBe('bad^Jerror: fake');
  });

  it('table cells: layout characters become a space, other controls caret notation', () => {
    expect(oneLine('a\r\nb\tc\u009bd\u001be')).toBe('a b cM-^[d^[e');
  });

  it('JSON keeps its value and loses its raw C1', () => {
    const value = { name: 'x\u009b2J\u007f\u0085y', n: 1 };
    const text = jsonText(JSON.stringify(value));
    expect(text).toBe('{"name":"x\\u009b2J\\u007f\\u0085y","n":1}');
    expect(JSON.parse(text)).toEqual(value);
  });
});
