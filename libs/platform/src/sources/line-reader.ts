import { Transform } from 'node:stream';
import { SourceError } from './source-error';

const LF = 0x0a;
const CR = 0x0d;

function lineTooLong(lineNumber: number, maxLineBytes: number): SourceError {
  return new SourceError(
    'line_too_long',
    `line ${lineNumber} is longer than ${maxLineBytes} bytes (SVC_SOURCE_MAX_LINE_BYTES)`,
  );
}

/**
 * Lines (LF or CR LF, terminator removed) of a byte stream, holding at most one line in memory:
 * a line longer than `maxLineBytes` fails with `line_too_long` as soon as that many bytes have
 * arrived without a line end, so a single endless line cannot grow a string past what V8 allows.
 */
export async function* splitLines(
  chunks: AsyncIterable<Buffer>,
  maxLineBytes: number,
): AsyncGenerator<string> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNumber = 0;
  const line = (last: Buffer): string => {
    let bytes = pending.length === 0 ? last : Buffer.concat([...pending, last], pendingBytes + last.length);
    pending = [];
    pendingBytes = 0;
    if (bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, -1);
    if (bytes.length > maxLineBytes) throw lineTooLong(lineNumber, maxLineBytes);
    return bytes.toString('utf8');
  };
  for await (const chunk of chunks) {
    let start = 0;
    for (let end = chunk.indexOf(LF, start); end >= 0; end = chunk.indexOf(LF, start)) {
      lineNumber += 1;
      // One byte more than the limit may be the CR of a CR LF ending.
      if (pendingBytes + end - start > maxLineBytes + 1) throw lineTooLong(lineNumber, maxLineBytes);
      yield line(chunk.subarray(start, end));
      start = end + 1;
    }
    if (start < chunk.length) {
      pendingBytes += chunk.length - start;
      if (pendingBytes > maxLineBytes + 1) throw lineTooLong(lineNumber + 1, maxLineBytes);
      pending.push(chunk.subarray(start));
    }
  }
  if (pendingBytes > 0) {
    lineNumber += 1;
    yield line(Buffer.alloc(0));
  }
}

/** Passes bytes through and fails with `source_too_large` once more than `maxBytes` went by. */
export function byteLimit(maxBytes: number, setting = 'SVC_SOURCE_MAX_BYTES'): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > maxBytes)
        callback(
          new SourceError(
            'source_too_large',
            `the source holds more than ${maxBytes} bytes (limit: ${setting})`,
          ),
        );
      else callback(null, chunk);
    },
  });
}

/**
 * The most bytes a whole-file read may hold: a JavaScript string cannot be longer than V8's limit
 * (about 512 MiB of one-byte characters), and a Buffer not longer than buffer.constants.MAX_LENGTH.
 */
export const MAX_TEXT_BYTES = 0x1fffffe8;
