// The CSV input: a file, or stdin for `-`. Opened before anything is sent, so a missing or
// unreadable file is a usage error (exit 2) and not a failure halfway through.
import { open, type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { CliError, ExitCode, usageError } from '../core/exit-codes.js';

export interface ImportInput {
  /** `-` for stdin, else the path as given. */
  name: string;
  /** Bytes in the file, when it is a regular file (for a percentage). */
  size?: number;
  /** The bytes, in chunks; a UTF-8 BOM is removed (see `bomLength`). */
  chunks(): AsyncIterable<Buffer>;
  /** 3 when the input started with a UTF-8 BOM (known once chunks() has begun). */
  readonly bomLength: number;
  /** Stops reading (Ctrl-C): a pending read ends, the iteration finishes early. */
  stop(): void;
  close(): Promise<void>;
}

const READ_CHUNK = 64 * 1024;

export async function openInput(path: string, stdin: Readable & { isTTY?: boolean }): Promise<ImportInput> {
  if (path === '-') return streamInput('-', stdin, undefined, async () => undefined);
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    throw usageError(`cannot read ${path}: ${reason(err)}`);
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) throw usageError(`cannot read ${path}: it is a directory`);
    // the stream closes the handle when it ends or is destroyed
    const stream = handle.createReadStream({ highWaterMark: READ_CHUNK });
    const closed = new Promise<void>((resolve) => stream.once('close', resolve));
    return streamInput(path, stream, stat.isFile() ? stat.size : undefined, () => closed);
  } catch (err) {
    await handle.close();
    throw err;
  }
}

function streamInput(name: string, stream: Readable, size: number | undefined, close: () => Promise<void>): ImportInput {
  let stopped = false;
  let bomLength = 0;
  const wake = new Set<() => void>();
  return {
    name,
    ...(size === undefined ? {} : { size }),
    get bomLength() {
      return bomLength;
    },
    async *chunks() {
      let head: Buffer | undefined = Buffer.alloc(0);
      for await (const chunk of readUntilStopped(stream, () => stopped, wake)) {
        if (head === undefined) {
          yield chunk;
          continue;
        }
        // The first bytes decide the encoding: hold them until there are three.
        head = Buffer.concat([head, chunk]);
        if (head.length < 3) continue;
        bomLength = checkEncoding(head, name);
        const rest = head.subarray(bomLength);
        head = undefined;
        if (rest.length) yield rest;
      }
      if (head?.length) {
        bomLength = checkEncoding(head, name);
        if (head.length > bomLength) yield head.subarray(bomLength);
      }
    },
    stop() {
      stopped = true;
      for (const w of wake) w();
    },
    async close() {
      stream.destroy();
      await close();
    },
  };
}

/** Chunks of `stream` until it ends or `stopped()` turns true (which also ends a read waiting for a pipe). */
async function* readUntilStopped(stream: Readable, stopped: () => boolean, wake: Set<() => void>): AsyncGenerator<Buffer> {
  let ended = false;
  let failure: Error | undefined;
  const onEnd = () => {
    ended = true;
    for (const w of wake) w();
  };
  const onError = (err: Error) => {
    failure = err;
    onEnd();
  };
  const onReadable = () => {
    for (const w of wake) w();
  };
  stream.on('end', onEnd);
  stream.on('error', onError);
  stream.on('readable', onReadable);
  try {
    for (;;) {
      if (stopped()) return;
      if (failure) throw new CliError(`reading the input failed: ${failure.message}`, ExitCode.FAILURE);
      const chunk = stream.read() as Buffer | string | null;
      if (chunk !== null) {
        yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        continue;
      }
      if (ended) return;
      await new Promise<void>((resolve) => {
        wake.add(resolve);
      }).finally(() => wake.clear());
    }
  } finally {
    stream.off('end', onEnd);
    stream.off('error', onError);
    stream.off('readable', onReadable);
  }
}

/** Length of a UTF-8 BOM at the start; UTF-16 files are refused with a way out. */
function checkEncoding(head: Buffer, name: string): number {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 3;
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) {
    throw new CliError(
      `${name === '-' ? 'stdin' : name} is UTF-16 text; save it as UTF-8 ("CSV UTF-8" in Excel) and import it again`,
      ExitCode.REJECTED,
    );
  }
  return 0;
}

function reason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  return (err as Error).message;
}
