import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

// zod/mini (chosen because it builds schemas fast: the client's start-up) loads no messages
// of its own; the English ones are what zod's classic API sets, and what answers and tests
// have always said for a value with no message of the contract's.
config(en());
