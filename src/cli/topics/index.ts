// The text of each help topic (`chamberctl help TOPIC`, docs/manual/help-TOPIC.md and its
// man page): help-topics.ts names them, one file here holds each.
import { ENVIRONMENT_TOPIC } from './environment.js';
import { EXIT_CODES_TOPIC } from './exit-codes.js';

export const TOPIC_TEXTS: Readonly<Record<string, string>> = {
  'exit-codes': EXIT_CODES_TOPIC,
  environment: ENVIRONMENT_TOPIC,
};
