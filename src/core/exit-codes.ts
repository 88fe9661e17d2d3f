/** Exit codes that scripts depend on (docs/manual/help-exit-codes.md, `chamberctl help exit-codes`). */
export const ExitCode = {
  OK: 0,
  FAILURE: 1,
  USAGE: 2,
  AUTH: 3,
  NOT_FOUND: 4,
  REJECTED: 5,
  /** Ctrl-C (SIGINT), as a shell reports it: 128 + 2; also Ctrl-C at a prompt. */
  INTERRUPTED: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** An error meant for the user: one sentence on stderr and an exit code, never a stack trace. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = ExitCode.FAILURE,
    /** Extra lines (e.g. the server's field messages), printed after the sentence. */
    readonly details: string[] = [],
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const usageError = (message: string) => new CliError(message, ExitCode.USAGE);

/** The exit status after a signal stopped a command: 128 + its number, as shells report it. */
export const signalExitCode = (signal: NodeJS.Signals) => (signal === 'SIGTERM' ? 143 : 130);
