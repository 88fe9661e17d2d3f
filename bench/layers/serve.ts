// bench:layers: `serve` as the CLI starts it (src/commands/serve/serve.ts: the same logger,
// startServer with the same options), without the CLI around it, so that one build of it can
// leave a layer out (scripts/build-bench-layers.mjs). Prints serve's `{"base_url":…}` line.
//
//   node dist/bench/layers/VARIANT.js --db FILE --client-id ID --client-secret SECRET
//        [--quiet] [--no-logger] [--metrics]
//
// --quiet is `serve --quiet` (no line per request); --no-logger runs with no logger at all
// (what pino and Fastify's child logger per request cost); --metrics is `serve --metrics`.
import { serverLogger, startServer } from '../../src/server/start.js';

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const logging = { destination: process.stderr, format: 'json', requests: !args.includes('--quiet') } as const;
const noLogger = args.includes('--no-logger');
const server = await startServer({
  host: '127.0.0.1',
  port: 0,
  dbPath: option('--db')!,
  seed: 'none',
  clientId: option('--client-id'),
  clientSecret: option('--client-secret'),
  metrics: args.includes('--metrics'),
  ...(noLogger ? {} : { logging, logger: await serverLogger(logging) }),
});
console.log(JSON.stringify({ base_url: server.baseUrl }));
// a clean exit, so that node --cpu-prof writes its profile
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void server.close().then(() => process.exit(0)));
