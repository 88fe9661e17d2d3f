// Test-only preload for the `chamberctl serve` processes the tests start (serve-process.ts;
// serve-conformance.ts loads it with NODE_OPTIONS=--import=<this file's URL>): every answer
// of every HTTP server of the process is appended, as one JSON line, to the file
// CHAMBERCTL_TEST_EXCHANGES names, and checked against the OpenAPI documents when the process
// ends (conformance.ts). So the requests the built CLI sends to a `serve` process are checked
// too, not only those of the test's own `call()`.
//
// Plain JavaScript, so node loads it without a build; the product never loads it. It writes
// nothing to stdout or stderr and changes no V8 flag (the code cache stays valid).
//
// How answers are seen: node's documented diagnostics channel 'http.server.request.start'
// (published for every request of every http.Server, before any 'request' listener runs, and
// also for the answers given outside 'request', such as serve's 'checkExpectation' one). Its
// response's write/end are wrapped to keep the body; when end() has written the whole answer,
// the status and headers are read from the header block node wrote (`_header`: what the
// client receives, whichever way the headers were set). Nothing is patched on a prototype.
// Not seen: the raw answers serve's clientErrorHandler writes to a socket node could not parse.
import { subscribe } from 'node:diagnostics_channel';
import { appendFileSync, openSync } from 'node:fs';

const FILE = process.env.CHAMBERCTL_TEST_EXCHANGES;
/**
 * The most of a body kept: a longer one is kept up to here, with `capped: true` and its full
 * length in `bodyBytes`, and the check counts it as not conforming (a body it could not check
 * does not pass). 250 times the suite's largest answer (32 KiB, /v2/openapi.json); it bounds
 * what a runaway answer costs.
 */
const BODY_CAP = 8 * 1024 * 1024;

let fd;
/**
 * One write per exchange on an O_APPEND file: a process killed at any moment leaves whole
 * lines, but for a last one cut short (which the check leaves out).
 */
function append(exchange) {
  fd ??= openSync(FILE, 'a');
  appendFileSync(fd, `${JSON.stringify(exchange)}\n`);
}

/** The status and headers of a header block (`HTTP/1.1 200 OK\r\nName: value\r\n...`). */
function parseHead(head) {
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? [headers[name]].flat().concat(value) : value;
  }
  return { status: Number(statusLine.split(' ')[1]), headers };
}

if (FILE) {
  subscribe('http.server.request.start', ({ request, response }) => {
    const chunks = [];
    let kept = 0;
    let bytes = 0;
    const keep = (chunk, encoding) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      const buf = typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : Buffer.from(chunk);
      bytes += buf.length;
      if (kept < BODY_CAP) {
        const part = buf.subarray(0, BODY_CAP - kept);
        chunks.push(part);
        kept += part.length;
      }
    };
    let recorded = false;
    const { write, end } = response;
    response.write = function (chunk, ...rest) {
      keep(chunk, rest[0]);
      return write.call(this, chunk, ...rest);
    };
    response.end = function (chunk, ...rest) {
      keep(chunk, rest[0]);
      const out = end.call(this, chunk, ...rest);
      // The whole answer is written: recorded here rather than at 'finish', so it is recorded
      // even when the client is slow or gone, or the process is killed while it is on its way.
      // An answer node wrote no header block for (its socket destroyed first) never left.
      if (!recorded && typeof response._header === 'string') {
        recorded = true;
        const { status, headers } = parseHead(response._header);
        append({
          method: request.method,
          url: request.url,
          status,
          headers,
          body: Buffer.concat(chunks).toString('utf8'),
          ...(bytes > kept && { capped: true, bodyBytes: bytes }),
          withoutHost: request.httpVersion === '1.1' && request.headers.host === undefined,
        });
      }
      return out;
    };
  });
}
