// Evaluated just after undici's entry point (see index.ts): node's lazy Headers is back.
import { saved } from './hide-web-headers.js';

if (saved?.get) Object.defineProperty(globalThis, 'Headers', saved);
