import type { CliContext, GlobalOptions } from '../core/context.js';
import { proxyEnv } from './dispatcher.js';
import { HttpClient, type HttpClientOptions } from './http.js';
import { terminalText } from '../core/terminal-text.js';

/**
 * The HTTP client of one command: --verbose logs to stderr, the clock is the context's.
 * (bin/load-bundle.js sets up V8 for the commands that talk HTTP before any code loads.)
 */
export function httpClientFor(globals: Pick<GlobalOptions, 'verbose'>, ctx: CliContext, extra: HttpClientOptions = {}): HttpClient {
  return new HttpClient({
    clock: () => ctx.now().getTime(),
    proxy: proxyEnv(ctx.env), // HTTPS_PROXY, HTTP_PROXY and NO_PROXY, as curl reads them
    // the exchange's headers and bodies come from the server: shown inert
    ...(globals.verbose ? { log: (line: string) => void ctx.stderr.write(`${terminalText(line)}\n`) } : {}),
    ...extra,
  });
}
