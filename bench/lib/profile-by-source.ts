import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

// Self time of a V8 CPU profile (node --cpu-prof) by the source file each function came from:
// a bundle's functions are read back to src/ and node_modules/ through the bundle's source map
// (node:module's SourceMap), node's own by their `node:` URL; then grouped into the layers of a
// request (LAYERS below). What bench:layers prints beside the figures of its builds.

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface Profile {
  nodes: { id: number; callFrame: CallFrame }[];
  samples: number[];
  timeDeltas: number[];
}

/** The layer of a source path (first match), as bench:layers names them. */
const LAYERS: [RegExp, string][] = [
  [/^\((idle)\)$/, '(idle)'],
  [/^\(garbage collector\)$/, 'garbage collection'],
  [/^\(program\)$/, 'V8 and native code outside any JavaScript function'],
  [/^native /, 'native functions called from JavaScript (SQLite statements, crypto, …)'],
  [/src\/server\/auth\//, 'token check (src/server/auth/)'],
  [/src\/server\/routes\/query\.ts|src\/contract\/|node_modules\/zod\//, 'query check (zod, src/contract/)'],
  [/src\/server\/(request-log|logging)\.ts|node_modules\/(pino|pino-std-serializers|fast-redact|sonic-boom|@pinojs|slow-redact|fast-copy|safe-stable-stringify|quick-format-unescaped|on-exit-leak-free|thread-stream|atomic-sleep)\//, 'request log (pino, logging.ts)'],
  [/src\/server\/deadline\.ts/, 'deadline (deadline.ts)'],
  [/src\/server\/request-gate\.ts/, 'request gate (request-gate.ts)'],
  [/src\/server\/metrics\.ts|node_modules\/prom-client\//, 'metrics'],
  // node:sqlite's statements show as the self time of the JavaScript function that calls them
  [/src\/storage\/|bench\/lib\/floor-/, 'storage and SQLite itself (src/storage/; the floor: bench/lib/floor-*.ts)'],
  [/src\/server\/routes\/|bench\/same-work-floor\.ts/, 'routes (src/server/routes/; the floor: bench/same-work-floor.ts)'],
  [/src\//, 'other src/'],
  [/node_modules\/(fastify|find-my-way|avvio|light-my-request|fast-querystring|fast-json-stringify|@fastify|fast-decode-uri-component|toad-cache|process-warning|secure-json-parse|abstract-logging|rfdc|ret|safe-regex2|fast-uri|json-schema-ref-resolver|proxy-addr|forwarded|ipaddr\.js|content-type|cookie|set-cookie-parser)\//, 'Fastify'],
  [/node_modules\//, 'other dependencies'],
  [/^node:/, "node's own JavaScript (http, net, streams, timers)"],
];

export interface SourceTime {
  source: string;
  layer: string;
  ms: number;
}

/** Self time (ms) of each source file, largest first. */
export function selfTimeBySource(profilePath: string): SourceTime[] {
  const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as Profile;
  const maps = new Map<string, SourceMap | null>();
  const mapOf = (url: string) => {
    if (!maps.has(url)) {
      try {
        maps.set(url, new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8'))));
      } catch {
        maps.set(url, null);
      }
    }
    return maps.get(url)!;
  };
  const sourceOf = (f: CallFrame): string => {
    if (f.url === '') return f.functionName.startsWith('(') ? f.functionName : `native ${f.functionName || '(anonymous)'}`;
    if (f.url.startsWith('node:')) return f.url;
    const map = f.url.startsWith('file:') ? mapOf(f.url) : null;
    const entry = map?.findEntry(f.lineNumber, f.columnNumber) as { originalSource?: string } | undefined;
    const source = entry?.originalSource ?? f.url;
    // the part from src/ or node_modules/ on
    const m = /(?:^|\/)((?:src|bench|node_modules)\/.*)$/.exec(source);
    return m ? m[1]!.replace(/^.*node_modules\//, 'node_modules/') : source;
  };
  const byNode = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const ms = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const source = sourceOf(byNode.get(id)!);
    ms.set(source, (ms.get(source) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...ms]
    .map(([source, t]) => ({ source, layer: LAYERS.find(([re]) => re.test(source))?.[1] ?? 'other', ms: t }))
    .sort((a, b) => b.ms - a.ms);
}

/** The same, summed by layer, largest first. */
export function byLayer(times: SourceTime[]): { layer: string; ms: number }[] {
  const sum = new Map<string, number>();
  for (const t of times) sum.set(t.layer, (sum.get(t.layer) ?? 0) + t.ms);
  return [...sum].map(([layer, ms]) => ({ layer, ms })).sort((a, b) => b.ms - a.ms);
}
