import type { MultipartFile } from '@fastify/multipart';
import { createHash, randomUUID } from 'node:crypto';
import { pipeline, Transform } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '@svc/contracts';
import { INFRASTRUCTURE, Infrastructure } from '@svc/bootstrap';
import { isMultipartError, multipartFailure, refuseLargeContentLength } from '../reference/multipart';

/** What POST /sources answers: the `uri` is accepted wherever a load takes a source URL. */
export interface UploadedSource {
  uri: string;
  key: string;
  size_bytes: number;
  sha256: string;
}

/** A file name safe as the last segment of an artifact key, keeping what helps a person recognise it. */
export function safeSourceFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 100);
  return cleaned === '' ? 'source' : cleaned;
}

/**
 * Source files for servers that read no local folder: streamed into the artifact store under
 * `sources/<uuid>/<name>`, hashed on the way, never held in memory.
 */
@Injectable()
export class SourcesService {
  constructor(@Inject(INFRASTRUCTURE) private readonly infra: Infrastructure) {}

  async upload(request: FastifyRequest): Promise<UploadedSource> {
    if (!request.isMultipart())
      throw new DomainError(
        'unsupported_media_type',
        'send multipart/form-data with the file in the `file` field',
      );
    const limit = this.infra.config.security.sourceUploadLimitBytes;
    refuseLargeContentLength(request, limit);
    let stored: UploadedSource | null = null;
    try {
      // The parts are read to the end, so that a body broken after the file (a cut-off form) is
      // seen and nothing of it is kept.
      for await (const part of request.parts({ limits: { fileSize: limit, files: 1 } })) {
        if (part.type !== 'file' || part.fieldname !== 'file' || stored !== null)
          throw new DomainError('validation_error', 'send one file, in the `file` field', {}, [
            { path: part.fieldname.slice(0, 100), message: 'not a part of this form (takes file)' },
          ]);
        stored = await this.store(part, limit);
      }
    } catch (error) {
      if (stored !== null) await this.infra.artifacts.delete(stored.key).catch(() => undefined);
      if (error instanceof DomainError || isMultipartError(error))
        throw multipartFailure(request, error, limit);
      throw error;
    }
    if (stored === null)
      throw new DomainError('validation_error', 'missing file field: file', {}, [
        { path: 'file', message: 'file required' },
      ]);
    return stored;
  }

  /** Streams one file part into the store under a fresh key, measuring and hashing it on the way. */
  private async store(part: MultipartFile, limit: number): Promise<UploadedSource> {
    const key = `sources/${randomUUID()}/${safeSourceFileName(part.filename)}`;
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        size += chunk.length;
        callback(null, chunk);
      },
    });
    const uri = await this.infra.artifacts.putStream(
      key,
      pipeline(part.file, meter, () => undefined),
    );
    // The multipart reader stops at the limit and marks the file truncated; nothing partial is kept.
    if (part.file.truncated) {
      await this.infra.artifacts.delete(key);
      throw new DomainError(
        'payload_too_large',
        `the file is larger than ${limit} bytes (SVC_SOURCE_UPLOAD_LIMIT_BYTES)`,
      );
    }
    return { uri, key, size_bytes: size, sha256: hash.digest('hex') };
  }
}
