import { CliError, ExitCode } from '../core/exit-codes.js';

/**
 * A database, port or seed that cannot be had, in one line fit for the user. Every command
 * that meets one fails with it as it is (exit 1), so it is a CliError from the start.
 */
export class StartError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.FAILURE);
    this.name = 'StartError';
  }
}
