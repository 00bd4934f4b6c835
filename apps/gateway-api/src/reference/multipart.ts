import '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '@svc/contracts';
import { rejectUnstorableText } from '@svc/platform';

export interface MultipartForm {
  fields: Record<string, string>;
  files: Record<string, { filename: string; content: Buffer }>;
}

/** The FASTA limit when a gateway was built without upload settings (`fasta_upload_limit_bytes`' default). */
const DEFAULT_FASTA_UPLOAD_LIMIT_BYTES = 200 * 1024 * 1024;

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

function describeBytes(bytes: number): string {
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
  const form: MultipartForm = { fields: {}, files: {} };
  try {
    for await (const part of request.parts({ limits: { fileSize: maxFileBytes } })) {
      if (part.type === 'file')
        form.files[part.fieldname] = { filename: part.filename, content: await part.toBuffer() };
      else if (typeof part.value === 'string') form.fields[part.fieldname] = part.value;
    }
  } catch (error) {
    if ((error as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new DomainError(
        'payload_too_large',
        `an uploaded file exceeds the limit of ${describeBytes(maxFileBytes)}`,
        { limit_bytes: maxFileBytes },
      );
    }
    throw error;
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
