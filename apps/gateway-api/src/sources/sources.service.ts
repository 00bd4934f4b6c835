import '@fastify/multipart';
import { createHash, randomUUID } from 'node:crypto';
import { pipeline, Transform } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '@svc/contracts';
import { INFRASTRUCTURE, Infrastructure } from '@svc/jobs';

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
    const part = await request.file({ limits: { fileSize: limit, files: 1 }, throwFileSizeLimit: false });
    if (part === undefined || part.fieldname !== 'file') {
      part?.file.resume();
      throw new DomainError('validation_error', 'missing file field: file', {}, [
        { path: 'file', message: 'file required' },
      ]);
    }
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
