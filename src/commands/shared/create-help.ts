// What the help of chambers create and members add says alike: the questions on a
// terminal, and when a POST is sent again. (Help texts are filled to 80 columns where they
// are shown: src/cli/help-texts.ts.)

/** `picked`: how the command's own questions go (a subsidiary's HQ, ...); `example`: a run without a terminal. */
export function PROMPTS_HELP(picked: string, example = ''): string {
  const text =
    'On a terminal (stdin and stderr both), the required options that are missing are asked for, on stderr: ' +
    `choices as select lists, the e-mail address and the country checked as you type, ${picked}. ` +
    "The options given are checked first, and so is the scope of the profile's client: a value that breaks a rule (exit 5), " +
    'or a client that may only read (exit 3), fails at once rather than after the questions. ' +
    'Ctrl-C at a question exits 130 and leaves no select list on the screen. ' +
    'Without a terminal, or after `config set prompt disabled`, the missing options are a usage error (exit 2) at once, ' +
    'never a question that waits; one error names all of them, and what is wrong with the options given';
  return example ? `${text}:\n\n${example.replace(/^/gm, '    ')}\n` : `${text}.\n`;
}

export const SENT_ONCE_HELP =
  'The POST is sent again only when it certainly never reached the server (connection refused, host not found, ' +
  'no connection within 10 s); when a connection breaks after it was sent, the error says that it may or may ' +
  'not have been applied.\n';
