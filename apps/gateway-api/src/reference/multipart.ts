import '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '@svc/contracts';
import { rejectUnstorableText } from '@svc/platform';
import { abandonBody } from '../http/abandon-body';

export interface MultipartForm {
  fields: Record<string, string>;
  files: Record<string, { filename: string; content: Buffer }>;
}

/** The FASTA limit when a gateway was built without upload settings (`fasta_upload_limit_bytes`' default). */
const DEFAULT_FASTA_UPLOAD_LIMIT_BYTES = 50 * 1024 * 1024;

/** Room for the multipart framing and the text fields around the file parts. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/** @fastify/multipart's limit errors: a count past `files`, `fields` or `parts` is a body too large. */
const LIMIT_CODES = new Set(['FST_FILES_LIMIT', 'FST_FIELDS_LIMIT', 'FST_PARTS_LIMIT']);

declare module 'fastify' {
  interface FastifyInstance {
    /** Per-gateway upload limits (several gateways with different settings may share one process). */
    uploadLimits?: { fastaBytes: number };
  }
}

/** Makes `fasta_upload_limit_bytes` the default file limit of `readMultipart` on this gateway. */
export function installUploadLimits(fastify: FastifyInstance, limits: { fastaBytes: number }): void {
  fastify.decorate('uploadLimits', { ...limits });
}

export function describeBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return mib >= 1 ? `${Number(mib.toFixed(1))} MiB` : `${Number((bytes / 1024).toFixed(1))} KiB`;
}

/**
 * Reads a multipart/form-data body; 415 when it is not multipart, 413 when a file exceeds `maxFileBytes`
 * (the gateway's FASTA limit unless a route passes another), 422 when a required file is missing. The
 * parts are streamed: a file is cut off (and the request refused) as soon as it passes the limit.
 */
export async function readMultipart(
  request: FastifyRequest,
  requiredFiles: string[],
  options: { maxFileBytes?: number } = {},
): Promise<MultipartForm> {
  if (!request.isMultipart()) {
    throw new DomainError(
      'unsupported_media_type',
      'send multipart/form-data with the file in the `file` field',
    );
  }
  const maxFileBytes =
    options.maxFileBytes ?? request.server.uploadLimits?.fastaBytes ?? DEFAULT_FASTA_UPLOAD_LIMIT_BYTES;
  refuseLargeContentLength(request, 3 * maxFileBytes);
  const form: MultipartForm = { fields: {}, files: {} };
  try {
    for await (const part of request.parts({ limits: { fileSize: maxFileBytes } })) {
      if (part.type === 'file')
        form.files[part.fieldname] = { filename: part.filename, content: await part.toBuffer() };
      else if (typeof part.value === 'string') form.fields[part.fieldname] = part.value;
    }
  } catch (error) {
    throw multipartFailure(request, error, maxFileBytes);
  }
  // Form fields and file names end up in text columns, which cannot hold a NUL character.
  const filenames = Object.entries(form.files).map(([field, file]) => [`${field}.filename`, file.filename]);
  rejectUnstorableText({ ...form.fields, ...Object.fromEntries(filenames) }, 'the multipart form');
  const missing = requiredFiles.filter((name) => form.files[name] === undefined);
  if (missing.length > 0) {
    throw new DomainError(
      'validation_error',
      `missing file field(s): ${missing.join(', ')}`,
      {},
      missing.map((path) => ({ path, message: 'file required' })),
    );
  }
  return form;
}

/**
 * 413 before a byte is read when the declared body is larger than the route could ever accept: the
 * file limit (`limitBytes`, the number the answer names) plus room for the form around the file.
 */
export function refuseLargeContentLength(
  request: FastifyRequest,
  limitBytes: number,
  formOverheadBytes = FORM_OVERHEAD_BYTES,
): void {
  const declared = Number(request.headers['content-length'] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limitBytes + formOverheadBytes) {
    abandonBody(request);
    throw new DomainError(
      'payload_too_large',
      `the request body of ${describeBytes(declared)} exceeds the upload limit of ${describeBytes(limitBytes)}`,
      { limit_bytes: limitBytes },
    );
  }
}

/**
 * What a failed multipart read answers: our own refusals as they are, a file past its limit or too
 * many parts 413, and anything else the parser met (no boundary, a truncated body, a broken part
 * header) 400. Either way the rest of the body is not parsed (`abandonBody`).
 */
export function multipartFailure(request: FastifyRequest, error: unknown, maxFileBytes: number): DomainError {
  abandonBody(request);
  if (error instanceof DomainError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    return new DomainError(
      'payload_too_large',
      `an uploaded file exceeds the limit of ${describeBytes(maxFileBytes)}`,
      { limit_bytes: maxFileBytes },
    );
  }
  if (typeof code === 'string' && LIMIT_CODES.has(code)) {
    return new DomainError('payload_too_large', 'the form has more parts than this route accepts');
  }
  return new DomainError('bad_request', 'the multipart/form-data body is malformed or incomplete');
}

/** Errors the multipart parser (@fastify/busboy and its dicer) raises on a malformed or cut-off body. */
const PARSER_MESSAGES =
  /^(Unexpected end of (form|file|multipart data)|\w+ terminated early due to unexpected end of multipart data|Malformed part header|Multipart: Boundary not found|Boundary required)/;

/** Whether an error met while streaming a file part is the client's broken body, not our storage. */
export function isMultipartError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('FST_')) return true;
  return error instanceof Error && PARSER_MESSAGES.test(error.message);
}
