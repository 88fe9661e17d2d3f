// A build-time edit of pino's redaction (@pinojs/redact 0.4), for every bundle that logs.
//
// pino 10 redacts through @pinojs/redact, which parses each configured path (`req.headers.
// authorization`, `*.client_secret`, ...) again on every call: once per top-level key of every
// log line, and once per binding of every child logger, i.e. of every request (Fastify makes a
// child per request). serve's paths (src/server/logging.ts, REDACTED_PATHS) made that ~30
// parses a request: a serve request line, its child logger included, took 21.4 µs (median of
// 8 rounds of 50,000, in one process, taking turns, load average 6), 9.7 µs with each path
// parsed once, 5.5 µs without redaction (docs/performance.md, the same-work floor section).
// The edit keeps the parser and memoizes it by path: the same parts for
// the same path, so the same lines. The parts are only read after parsing (and a censor
// function gets pino's copy of them), so sharing one array per path is safe; the map holds
// the configured paths only (nothing else is parsed). The build fails
// if the function is no longer there.
import { readFileSync } from 'node:fs';

const PARSER = 'function parsePath (path) {';

export const redactPathsParsedOnce = {
  name: 'redact-paths-parsed-once',
  setup(b) {
    b.onLoad({ filter: /[\\/]@pinojs[\\/]redact[\\/]index\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes(PARSER)) throw new Error(`${args.path} no longer has \`${PARSER}\`: see scripts/redact-paths-parsed-once.mjs`);
      const memoized = [
        'const parsedPaths = new Map()',
        'function parsePath (path) {',
        '  let parts = parsedPaths.get(path)',
        '  if (parts === undefined) parsedPaths.set(path, (parts = parsePathOnce(path)))',
        '  return parts',
        '}',
        'function parsePathOnce (path) {',
      ].join('\n');
      return { contents: text.replace(PARSER, memoized), loader: 'js' };
    });
  },
};
