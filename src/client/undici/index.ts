// undici's public entry point, for the client. (The bundle's copy of undici's cookie helpers
// does not read node's global Headers, which would load node's own bundled undici: see
// undiciCookiesWithoutNodeHeaders in scripts/build.mjs.)
export { EnvHttpProxyAgent, Pool, type Dispatcher } from 'undici';
