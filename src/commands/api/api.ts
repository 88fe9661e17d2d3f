import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import type { CliContext, GlobalOptions } from '../../core/context.js';
import { usageError } from '../../core/exit-codes.js';
import type { HttpResponse } from '../../client/http.js';
import { buildRawRequest, exitCodeFor, sendPaginated, sendRaw } from '../../client/raw-api.js';
import { openProfileForCalls } from '../../client/session.js';
import { createOutput } from '../../output/output.js';
import { jsonText, terminalLine, terminalText } from '../../core/terminal-text.js';

export interface ApiOptions {
  method?: string;
  rawField: string[];
  field: string[];
  input?: string;
  header: string[];
  paginate?: boolean;
  include?: boolean;
}

/** Reads all of stdin, synchronously (a body or a field value piped in). */
const readStdin = () => readFileSync(0, 'utf8');

export async function runApi(path: string, opts: ApiOptions, globals: GlobalOptions, ctx: CliContext): Promise<void> {
  let input: string | undefined;
  if (opts.input !== undefined) {
    try {
      input = opts.input === '-' ? readStdin() : readFileSync(opts.input, 'utf8');
    } catch (err) {
      throw usageError(`--input ${opts.input}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
  }
  const output = await createOutput(globals, ctx);
  const p = openProfileForCalls(globals, ctx);
  try {
    const req = buildRawRequest({
      path,
      ...(opts.method ? { method: opts.method } : {}),
      rawFields: opts.rawField,
      typedFields: opts.field,
      ...(input !== undefined ? { input } : {}),
      headers: opts.header,
      profileVersion: p.apiVersion,
      ...(opts.paginate ? { paginate: true } : {}),
      readStdin,
    });
    // pretty and inert on a terminal (C1 controls as \u escapes, other text's controls in
    // caret notation: core/terminal-text.ts); as it came otherwise (scripts and jq get the
    // server's bytes)
    const pretty = Boolean(ctx.stdout.isTTY);
    const prettyJson = (value: unknown) => output.out.json(jsonText(JSON.stringify(value, null, 2)));
    const show = (value: unknown, text: string) => (!pretty ? text : value !== undefined ? prettyJson(value) : terminalText(text));
    let res: HttpResponse;
    let text: string;
    if (opts.paginate) {
      const r = await sendPaginated(p.http, p.tokens, p.baseUrl, req);
      res = r.failed ?? r.last;
      text = r.failed ? show(r.failed.json, r.failed.text) : pretty ? prettyJson(r.items) : JSON.stringify(r.items);
    } else {
      res = await sendRaw(p.http, p.tokens, p.baseUrl, req);
      text = show(res.json, res.text);
    }
    if (opts.include) {
      const lines = [`HTTP/1.1 ${res.status} ${STATUS_CODES[res.status] ?? ''}`.trimEnd()];
      for (const [name, value] of Object.entries(res.headers)) {
        for (const v of Array.isArray(value) ? value : [value ?? '']) lines.push(`${name}: ${pretty ? terminalLine(v) : v}`);
      }
      await output.stdout.write(`${lines.join('\n')}\n\n`);
    }
    if (text) await output.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    const code = exitCodeFor(res);
    if (code !== 0) {
      ctx.stderr.write(`error: ${req.method} /${req.version}${req.path.split('?')[0]} answered ${res.status} ${STATUS_CODES[res.status] ?? ''}\n`.replace(' \n', '\n'));
      ctx.exitCode = code;
    }
  } finally {
    await p.http.close();
  }
}
