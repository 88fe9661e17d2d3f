// What a command says beyond its usage and options: declared once, in its noun's help.ts
// beside register.ts, and shown by --help, the manual (docs/manual/) and the man pages
// (man/), which are generated from the command tree (src/cli/manual/). The texts are loaded
// only when help is shown (src/cli/help-texts.ts), so that they cost a command nothing.
import type { ExitCode } from '../../core/exit-codes.js';

/**
 * An exit status and when this command ends with it. 143 is a SIGTERM, as a shell reports
 * it (`signalExitCode`).
 */
export type ExitStatus = readonly [code: ExitCode | 143, when: string];

export interface CommandHelp {
  /**
   * What the command does, beyond its one-line description, in manual text: Markdown that
   * reads as plain text in a terminal (paragraphs; `- ` lists; blocks indented 4 spaces,
   * after a blank line; a heading underlined with `---`; `code` in backticks, never a bare
   * `<`). Paragraphs and items are filled to 80 columns where they are shown
   * (src/cli/help-texts.ts); blocks are kept as written.
   */
  description?: string;
  /** Command lines, as typed after `$ ` (a `# comment` may follow). */
  examples: readonly string[];
  /** Every exit status the command has, and when (`help exit-codes` has the general rules). */
  exitCodes?: readonly ExitStatus[];
  /** Help topics (`help:csv-format`) and commands (`members list`) that say more. */
  seeAlso?: readonly string[];
}

/** The help of a noun's commands, by their path after `chamberctl` (`members import`). */
export type HelpOf = Readonly<Record<string, CommandHelp>>;
