// Terminal widths, for tables only: string-width builds an Intl.Segmenter when it loads,
// which costs a short command ~30 ms, so TSV, CSV and JSON output never import this module.
import stringWidth from 'string-width';

/**
 * Terminal columns a plain string takes, measured by string-width: East Asian wide
 * characters and emoji count two, a flag or a joined emoji sequence is one glyph, combining
 * marks and zero-width characters count nothing.
 */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

const graphemes = (text: string) => Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text), (g) => g.segment);

/** Cuts `text` to `width` columns, ending with an ellipsis when something was cut (never inside a glyph). */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  return `${take(graphemes(text), width - 1)}…`;
}

/**
 * Cuts `text` to `width` columns in the middle, keeping its start and its end: names that
 * share a long start (`Antwerp Business Chamber – Ghent Branch`) stay told apart.
 */
export function truncateMiddle(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width < 8) return truncate(text, width);
  const parts = graphemes(text);
  const tail = Math.floor((width - 1) / 2);
  const end = takeEnd(parts, tail);
  return `${take(parts, width - 1 - displayWidth(end)).trimEnd()}…${end.trimStart()}`;
}

/** The longest start of `parts` that fits `width` columns. */
function take(parts: string[], width: number): string {
  let out = '';
  let used = 0;
  for (const g of parts) {
    const w = displayWidth(g);
    if (used + w > width) break;
    out += g;
    used += w;
  }
  return out;
}

/** The longest end of `parts` that fits `width` columns. */
function takeEnd(parts: string[], width: number): string {
  let out = '';
  let used = 0;
  for (let i = parts.length - 1; i >= 0; i--) {
    const w = displayWidth(parts[i]!);
    if (used + w > width) break;
    out = parts[i]! + out;
    used += w;
  }
  return out;
}

