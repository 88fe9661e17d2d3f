// What the help of chambers, members and events says of the commands the interface lacks
// (not-in-interface.ts refuses them).
import { CHANGE_VERBS } from './not-in-interface.js';

const others = CHANGE_VERBS.filter((v) => v !== 'update' && v !== 'delete').map((v) => `\`${v}\``);

// filled to 80 columns where it is shown (src/cli/help-texts.ts)
export const NO_CHANGES_HELP =
  'No update, no delete: the interface has no endpoint that changes or deletes a chamber, a member or an event, ' +
  'nor one that creates an event, so chamberctl has no such command. ' +
  `\`members delete\`, \`chambers update\` (and ${others.join(', ')}, \`events create\`) say so in one line, exit 2 and send nothing: ` +
  "to change or remove a record, ask the directory's operator. On your own `chamberctl serve` database you are the operator: " +
  '`snapshot export`, edit the file, `snapshot import --replace`.\n';
