// Text from a file or the network, made safe to show on a terminal. A terminal takes C0
// controls (ESC starts a sequence: OSC 52 writes the clipboard, CSI 2J clears the screen)
// and C1 controls (U+009B is a one-character CSI) as commands, so a CSV cell or a server's
// error message could drive the user's terminal. As gh's asciisanitizer (cli/go-gh
// pkg/asciisanitizer) does, such characters are shown inert, here in `cat -v`'s notation:
// ESC is `^[`, BEL `^G`, DEL `^?`, U+009B `M-^[`. Tab stays; a newline stays only where the
// text may span lines (docs/manual/help-output.md, "Control characters").

// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex
const CONTROLS_AND_NEWLINE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;

/** `cat -v`'s notation of one control character. */
export function caretNotation(c: string): string {
  const code = c.charCodeAt(0);
  if (code === 0x7f) return '^?';
  if (code >= 0x80) return `M-${caretNotation(String.fromCharCode(code - 0x80))}`;
  return `^${String.fromCharCode(code + 0x40)}`;
}

/** Every control character but tab and newline in caret notation. */
export function terminalText(text: string): string {
  return text.replace(CONTROLS, caretNotation);
}

/** One line: a newline from the text is shown as `^J` too, so it cannot fake a line of ours. */
export function terminalLine(text: string): string {
  return text.replace(CONTROLS_AND_NEWLINE, caretNotation);
}

/**
 * JSON text with DEL and the C1 controls written as `\u` escapes, which JSON.stringify
 * leaves raw (it escapes only C0): the same JSON value, byte for byte what a parser reads,
 * without a one-character CSI on a terminal. Outside strings JSON text holds only ASCII,
 * so this cannot change its structure.
 */
export function jsonText(json: string): string {
  return json.replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
