// Evaluated just before undici's entry point (see index.ts): hides node's global Headers.
// Node 20 defines fetch, Headers, Request... as lazy getters that load node's own bundled
// copy of undici (~15 ms of a short command) on first read. undici's cookie helpers read
// `globalThis.Headers` as they load, only to accept node's Headers objects as well as
// undici's own in getCookies/setCookie, which this project never calls.
export const saved = Object.getOwnPropertyDescriptor(globalThis, 'Headers');
if (saved?.get) Object.defineProperty(globalThis, 'Headers', { configurable: true, writable: true, value: undefined });
