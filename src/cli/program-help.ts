// What `chamberctl --help`, chamberctl(1) and the manual's index say of chamberctl itself.
import type { CommandHelp } from '../commands/shared/command-help.js';

export const PROGRAM_HELP: CommandHelp = {
  examples: [
    'chamberctl serve &                      # a local server with demo data; writes the "local" profile',
    'chamberctl chambers list --type hq --sort name',
    'chamberctl members import ch_ms2fLiZry7iy3IuE members.csv --report rejected.csv',
    'chamberctl help chambers',
  ],
};
