import { connect, type Socket } from 'node:net';

// A client at the socket, for what fetch does not let a test control: when the body is
// written, how fast, and when the answer is read.

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The error of the socket, if any (EPIPE, ECONNRESET): the answer was lost or cut. */
  error?: string;
}

/** Parses what the server sent: the first answer's status line, headers and body. */
export function parseAnswer(data: string, error?: string): RawAnswer {
  const end = data.indexOf('\r\n\r\n');
  const head = (end < 0 ? data : data.slice(0, end)).split('\r\n');
  const headers = Object.fromEntries(
    head.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  const status = Number(head[0]?.split(' ')[1] ?? 0) || 0;
  return { status, headers, body: end < 0 ? '' : data.slice(end + 4), ...(error && { error }) };
}

/** Whether `data` holds a whole answer with a Content-Length. */
function complete(data: string): boolean {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const length = /content-length: *(\d+)/i.exec(data.slice(0, end));
  return !!length && Buffer.byteLength(data.slice(end + 4)) >= Number(length[1]);
}

function open(baseUrl: string): Promise<Socket> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname.replace(/^\[|\]$/g, ''));
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * Sends `head` (request line and headers, ending in a blank line) and nothing more, then
 * waits for a whole answer: for a request whose Content-Length promises a body, an answer
 * here came before the body was read.
 */
export async function answerWithoutBody(baseUrl: string, head: string): Promise<RawAnswer> {
  const socket = await open(baseUrl);
  return new Promise((resolve) => {
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      data += d;
      if (complete(data)) {
        socket.destroy();
        resolve(parseAnswer(data));
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) => resolve(parseAnswer(data, err.code)));
    socket.on('close', () => resolve(parseAnswer(data, 'closed before a whole answer')));
    socket.write(head);
  });
}

/**
 * Writes `head`, then `bodyBytes` bytes of `fill` in chunks of `chunkBytes`, each after the
 * last was taken by the kernel and `gapMs` later, and reads nothing until all of it is
 * written (as a client does that writes its whole request before it reads: most scripts).
 * Then reads until the server closes or a whole answer is in. `written` is how much of the
 * body was written before an error.
 */
export async function slowUpload(
  baseUrl: string,
  head: string,
  opts: { bodyBytes: number; chunkBytes?: number; gapMs?: number; fill?: number },
): Promise<RawAnswer & { written: number }> {
  const socket = await open(baseUrl);
  socket.pause(); // read nothing yet
  let error: string | undefined;
  socket.on('error', (err: NodeJS.ErrnoException) => (error ??= err.code ?? err.message));
  const write = (chunk: Buffer | string) =>
    new Promise<void>((resolve) => {
      if (error || socket.destroyed) return resolve();
      socket.write(chunk, () => resolve());
    });
  await write(head);
  const chunkBytes = opts.chunkBytes ?? 64 * 1024;
  let written = 0;
  while (written < opts.bodyBytes && !error && !socket.destroyed) {
    const n = Math.min(chunkBytes, opts.bodyBytes - written);
    await write(Buffer.alloc(n, opts.fill ?? 0x20));
    if (!error) written += n;
    if (opts.gapMs) await new Promise((r) => setTimeout(r, opts.gapMs));
  }
  return new Promise((resolve) => {
    let data = '';
    const done = () => resolve({ ...parseAnswer(data, error), written });
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      data += d;
      if (complete(data)) {
        socket.destroy();
        done();
      }
    });
    socket.on('close', done);
    socket.resume();
  });
}
