// undici's public entry point, for the client. Modules are evaluated in the order they are
// imported, so node's global Headers is hidden exactly while undici's modules load; see
// hide-web-headers.ts for why.
import './hide-web-headers.js';
export { EnvHttpProxyAgent, Pool, type Dispatcher } from 'undici';
import './restore-web-headers.js';
