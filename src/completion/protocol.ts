// What `chamberctl __complete` answers (the protocol is described in ./README.md).

export interface Candidate {
  value: string;
  description?: string;
}

/** `nofiles`: the candidates only; `files`: the shell also completes file names. */
export type Directive = 'nofiles' | 'files';

export interface Completion {
  candidates: Candidate[];
  directive: Directive;
}

export const NOTHING: Completion = { candidates: [], directive: 'nofiles' };

/** Candidate lines (`VALUE` or `VALUE<TAB>DESCRIPTION`), then the directive line. */
export function formatCompletion(c: Completion): string {
  const lines = c.candidates.map(({ value, description }) => {
    // One line per candidate: a tab or newline inside would break the scripts' parsing.
    const v = oneLine(value);
    const d = description ? oneLine(description) : '';
    return d ? `${v}\t${d}` : v;
  });
  lines.push(`:${c.directive}`);
  return `${lines.join('\n')}\n`;
}

const oneLine = (s: string) => s.replace(/[\t\r\n]+/g, ' ').trim();
