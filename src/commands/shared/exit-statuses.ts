// Exit statuses that many commands have, in the same words on every page of the manual
// (each command's help.ts lists its own; `chamberctl help exit-codes` has the rules).
import type { ExitStatus } from './command-help.js';

/** A command that talks to a server, when it fails there. */
export const SERVER_FAILED: ExitStatus = [
  1,
  'the server (or a proxy) cannot be reached, the server fails (5xx), still limits requests (429) after the retries, or answers something unexpected; the config file cannot be read',
];

/** A command that needs a profile's credentials. */
export const NO_CREDENTIALS: ExitStatus = [
  3,
  'no profile or no credentials (`chamberctl login`), or the server refused them: the client was revoked or its secret rotated',
];

/** A command that writes through the API. */
export const CANNOT_WRITE: ExitStatus = [
  3,
  'no profile or no credentials, the server refused them, or the profile\'s client holds only the read scope (said before any prompt or request; the server\'s 403 too)',
];

export const INTERRUPTED: ExitStatus = [130, 'interrupted by Ctrl-C (at a prompt too)'];
