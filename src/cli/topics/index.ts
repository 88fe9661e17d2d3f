// The text of each help topic (`chamberctl help TOPIC`, docs/manual/help-TOPIC.md and its
// man page): help-topics.ts names them, one file here holds each.
import { API_VERSIONS_TOPIC } from './api-versions.js';
import { CSV_FORMAT_TOPIC } from './csv-format.js';
import { DESTRUCTIVE_TOPIC } from './destructive.js';
import { ENVIRONMENT_TOPIC } from './environment.js';
import { EXIT_CODES_TOPIC } from './exit-codes.js';
import { HTTP_TOPIC } from './http.js';
import { OFFLINE_TOPIC } from './offline.js';
import { OUTPUT_TOPIC } from './output.js';

export const TOPIC_TEXTS: Readonly<Record<string, string>> = {
  'exit-codes': EXIT_CODES_TOPIC,
  environment: ENVIRONMENT_TOPIC,
  output: OUTPUT_TOPIC,
  'csv-format': CSV_FORMAT_TOPIC,
  'api-versions': API_VERSIONS_TOPIC,
  offline: OFFLINE_TOPIC,
  http: HTTP_TOPIC,
  destructive: DESTRUCTIVE_TOPIC,
};
