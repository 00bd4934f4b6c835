import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '@svc/contracts';
import { FASTA_MAX_HEADER_LENGTH, FastaReader, FastaResult } from '@svc/domain';
import { rejectUnstorableText } from '@svc/platform';
import { describeBytes, multipartFailure, refuseLargeContentLength } from './multipart';

/** Longest text field (a name or a description; both are bounded far below this when stored). */
const FIELD_MAX_BYTES = 16 * 1024;

/**
 * How much more of a file is read, only counting its headers, once it passed the record limit, so the
 * refusal can say how many records were asked; the same bound as the drain of a refused body.
 */
const COUNT_PAST_LIMIT_BYTES = 4 * 1024 * 1024;

export interface FastaUploadLimits {
  /** Largest file part (the caller's role decides: a guest's cap, else fasta_upload_limit_bytes). */
  maxBytes: number;
  /** Longest sequence a record may have. */
  maxSequenceLength: number;
  /**
   * Most records the upload may hold, with the refusal to give once the file passes it (the caller's
   * quota headroom: 429; a set-size cap: 413). Null: no bound. The rest of the file is then only
   * counted, up to COUNT_PAST_LIMIT_BYTES: `seen` is every record of the file, or (`atLeast`) those
   * counted before that bound or the byte limit cut it off.
   */
  maxRecords: { limit: number; refuse: (seen: number, atLeast: boolean) => DomainError } | null;
}

export interface FastaUpload {
  fields: Record<string, string>;
  filename: string;
  fasta: FastaResult;
}

/**
 * Reads a FASTA upload (multipart/form-data with one `file` part and the named text fields) as a
 * stream: a Content-Length past the limit is refused before a byte is read, the file is parsed line by
 * line as it arrives (never held whole), and the request is refused as soon as it passes the byte
 * limit or the record limit, or holds a part the route does not document. Malformed multipart is a
 * 400; every refusal closes the connection, so the rest of the body is never read.
 */
export async function readFastaUpload(
  request: FastifyRequest,
  input: { fields: readonly string[]; limits: FastaUploadLimits },
): Promise<FastaUpload> {
  const { limits } = input;
  if (!request.isMultipart()) {
    throw new DomainError(
      'unsupported_media_type',
      'send multipart/form-data with the FASTA file in the `file` field',
    );
  }
  refuseLargeContentLength(request, limits.maxBytes);
  const fields: Record<string, string> = {};
  let upload: { filename: string; fasta: FastaResult } | null = null;
  try {
    const parts = request.parts({
      limits: {
        fileSize: limits.maxBytes,
        // One more of each than the form takes, so that an extra part is named in a 422.
        files: 2,
        fields: input.fields.length + 1,
        parts: input.fields.length + 3,
        fieldSize: FIELD_MAX_BYTES,
      },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || upload !== null) throw unexpectedPart(part.fieldname, input.fields);
        upload = { filename: part.filename, fasta: await readFastaStream(part.file, limits) };
      } else {
        if (!input.fields.includes(part.fieldname)) throw unexpectedPart(part.fieldname, input.fields);
        if (part.valueTruncated) throw fieldTooLong(part.fieldname);
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
      }
    }
  } catch (error) {
    throw multipartFailure(request, error, limits.maxBytes);
  }
  rejectUnstorableText(
    { ...fields, ...(upload === null ? {} : { 'file.filename': upload.filename }) },
    'the multipart form',
  );
  if (upload === null) {
    throw new DomainError('validation_error', 'missing file field(s): file', {}, [
      { path: 'file', message: 'file required' },
    ]);
  }
  return { fields, ...upload };
}

/**
 * Parses a FASTA stream chunk by chunk, never holding more than a chunk and one bounded line: a
 * header past its bound is refused at once, a longer sequence line is handed to the reader in pieces
 * (which counts it against the longest sequence). A file cut off at the byte limit is a 413; a file
 * past the record limit is refused with the number of its records.
 */
async function readFastaStream(file: Readable & { truncated?: boolean }, limits: FastaUploadLimits) {
  const reader = new FastaReader({
    maxRecords: limits.maxRecords?.limit,
    maxSequenceLength: limits.maxSequenceLength,
  });
  // A header longer than this is refused here; a sequence line is handed on in pieces of this size.
  const maxLine = FASTA_MAX_HEADER_LENGTH + 1024;
  const decoder = new StringDecoder('utf8');
  let pending = '';
  // Whether part of the current line was already handed on (a sequence line longer than maxLine).
  let midLine = false;
  // Bytes read (only to count headers) since the file passed the record limit.
  let countedPastLimit = 0;
  const pushLines = (text: string, final: boolean) => {
    let combined = pending + text;
    // A CR at a chunk's end may be the first half of a CRLF: keep it until the next chunk says.
    const heldCr = !final && combined.endsWith('\r');
    if (heldCr) combined = combined.slice(0, -1);
    const lines = combined.split(/\r\n|\r|\n/);
    pending = final ? '' : (lines.pop() ?? '') + (heldCr ? '\r' : '');
    // Past the record limit the reader only counts headers: a long one is no reason to refuse.
    const isLongHeader = (line: string) =>
      !reader.passedMaxRecords && line.startsWith('>') && line.length > maxLine;
    for (const line of lines) {
      if (midLine) reader.continueLine(line);
      else if (isLongHeader(line)) throw headerTooLong(reader.linesRead + 1);
      else reader.push(line);
      midLine = false;
    }
    if (pending.length > maxLine) {
      if (!midLine && isLongHeader(pending)) throw headerTooLong(reader.linesRead + 1);
      if (midLine) reader.continueLine(pending);
      else reader.push(pending);
      midLine = true;
      pending = '';
    }
  };
  const { maxRecords } = limits;
  for await (const chunk of file) {
    pushLines(decoder.write(chunk as Buffer), false);
    if (maxRecords === null || !reader.passedMaxRecords) continue;
    countedPastLimit += (chunk as Buffer).length;
    if (countedPastLimit > COUNT_PAST_LIMIT_BYTES) throw maxRecords.refuse(reader.recordCount, true);
  }
  if (file.truncated) {
    if (maxRecords !== null && reader.passedMaxRecords) throw maxRecords.refuse(reader.recordCount, true);
    throw fileTooLarge(limits.maxBytes);
  }
  pushLines(decoder.end(), true);
  if (maxRecords !== null && reader.passedMaxRecords) throw maxRecords.refuse(reader.recordCount, false);
  return reader.finish();
}

function unexpectedPart(name: string, allowed: readonly string[]): DomainError {
  const documented = ['file', ...allowed].join(', ');
  return new DomainError('validation_error', `unexpected form part; this route takes ${documented}`, {}, [
    { path: name.slice(0, 100), message: `not a part of this form (takes ${documented})` },
  ]);
}

function fieldTooLong(name: string): DomainError {
  return new DomainError('payload_too_large', `the form field ${name.slice(0, 100)} is too long`, {
    limit_bytes: FIELD_MAX_BYTES,
  });
}

/** A header past its bound, refused before the rest of it is read; the problem never echoes it. */
function headerTooLong(lineNumber: number): DomainError {
  const message = `line ${lineNumber}: header is longer than ${FASTA_MAX_HEADER_LENGTH} characters`;
  return new DomainError('validation_error', `the upload has a problem: ${message}`, {}, [
    { path: `file:${lineNumber}`, message },
  ]);
}

export function fileTooLarge(maxBytes: number): DomainError {
  return new DomainError(
    'payload_too_large',
    `an uploaded file exceeds the limit of ${describeBytes(maxBytes)}`,
    { limit_bytes: maxBytes },
  );
}
