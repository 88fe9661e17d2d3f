// undici's package entry loads every feature it has (fetch, WebSocket, cookies, caches...),
// which costs ~50 ms at start-up; a command needs only a keep-alive Pool and its
// `request` method. So this imports those two modules and wires `request` onto the
// dispatcher exactly as undici's own index.js does. undici has no `exports` map, so these
// paths are public; they are pinned by the ^7 range and covered by the client tests.
import type { Pool as UndiciPool } from 'undici';
import DispatcherImpl from 'undici/lib/dispatcher/dispatcher.js';
import PoolImpl from 'undici/lib/dispatcher/pool.js';
import api from 'undici/lib/api/index.js';

Object.assign((DispatcherImpl as { prototype: object }).prototype, api);

export const Pool = PoolImpl as unknown as typeof UndiciPool;
export type Pool = UndiciPool;
