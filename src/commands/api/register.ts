import type { Command } from 'commander';
import type { CliContext, GlobalOptions } from '../../core/context.js';
import { addJqOption } from '../shared/jq-option.js';
import type { ApiOptions } from './api.js';

const collect = (value: string, previous: string[]) => [...previous, value];

/** `chamberctl api PATH`, like `gh api`. */
export function registerApi(program: Command, ctx: CliContext): void {
  addJqOption(program.command('api'), ctx)
    .description("Call any endpoint with the profile's token and print the JSON answer")
    .argument('<path>', 'the endpoint, e.g. /v2/chambers or chambers/ch_x/members (version from the path, else the profile)')
    .option('-X, --method <method>', 'the HTTP method (default GET, or POST with fields or --input, as gh api)')
    .option('-f, --raw-field <key=value>', 'a string field: the JSON body (key[sub]=v nests), or the query with -X GET or --paginate', collect, [])
    .option('-F, --field <key=value>', 'a typed field: true, false, null and numbers as JSON, @file reads a file (@- stdin)', collect, [])
    .option('--input <file>', 'the JSON body, from a file (- for stdin)')
    .option('-H, --header <name:value>', 'an extra request header', collect, [])
    .option('--paginate', 'follow `page` to the end of a list and print one array of every item')
    .option('-i, --include', 'print the status line and the response headers before the body')
    .action(async (path: string, opts: ApiOptions, cmd: Command) => {
      const { runApi } = await import('./api.js');
      await runApi(path, opts, cmd.optsWithGlobals<GlobalOptions & ApiOptions>(), ctx);
    });
}
