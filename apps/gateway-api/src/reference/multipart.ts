import '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '@svc/contracts';

export interface MultipartForm {
  fields: Record<string, string>;
  files: Record<string, { filename: string; content: Buffer }>;
}

/** The documented limit for an uploaded FASTA file (the multipart plugin allows up to 100 MB for other files). */
export const FASTA_UPLOAD_LIMIT_BYTES = 50 * 1024 * 1024;

/**
 * Reads a multipart/form-data body; 415 when it is not multipart, 413 when a file exceeds `maxFileBytes`
 * (the FASTA limit unless a route passes another), 422 when a required file is missing.
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
  const maxFileBytes = options.maxFileBytes ?? FASTA_UPLOAD_LIMIT_BYTES;
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
        `an uploaded file exceeds the limit of ${maxFileBytes / (1024 * 1024)} MB`,
      );
    }
    throw error;
  }
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
