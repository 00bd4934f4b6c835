import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import {
  ArtifactNotFoundError,
  ArtifactStore,
  ArtifactStoreUnavailable,
  validateArtifactKey,
  validateArtifactPrefix,
  validKeyOrNull,
} from './artifact-store';

export interface S3StoreOptions {
  /** `http(s)://host:port`, or `host:port` with the scheme taken from `secure`. */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  secure: boolean;
  region: string;
}

type S3Sdk = typeof import('@aws-sdk/client-s3');

/** Part size of a streamed upload: S3 wants at least 5 MiB per part but the last; memory holds one. */
const STREAM_PART_BYTES = 8 * 1024 * 1024;

/** How long the start-up check may take before the store counts as unreachable. */
const READY_TIMEOUT_MS = 10_000;

/** `host:port` gets its scheme from the TLS switch; an endpoint that names a scheme keeps it. */
export function endpointUrl(endpoint: string, secure: boolean): string {
  return /^https?:\/\//i.test(endpoint) ? endpoint : `${secure ? 'https' : 'http'}://${endpoint}`;
}

/** The HTTP status of an SDK error, or undefined for a transport failure (refused, reset, timed out). */
function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

function isMissing(error: unknown): boolean {
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  return statusOf(error) === 404 || name === 'NoSuchKey' || name === 'NotFound';
}

/**
 * Artifacts as objects of one bucket of an S3-compatible store (AWS S3, MinIO, Ceph): the key is the
 * object key, the URI `s3://<bucket>/<key>`. Path-style addressing, since MinIO and most self-hosted
 * servers do not serve bucket subdomains.
 */
export class S3ArtifactStore implements ArtifactStore {
  readonly backend = 's3' as const;
  readonly bucket: string;
  readonly endpoint: string;
  private sdk: Promise<{ s3: S3Sdk; client: S3Client }> | null = null;

  constructor(private readonly options: S3StoreOptions) {
    this.bucket = options.bucket;
    this.endpoint = endpointUrl(options.endpoint, options.secure);
  }

  /**
   * The SDK and a client, loaded on first use: the SDK takes about half a second to load, which
   * processes on the local backend should not pay.
   */
  private connect(): Promise<{ s3: S3Sdk; client: S3Client }> {
    return (this.sdk ??= import('@aws-sdk/client-s3').then((s3) => ({
      s3,
      client: new s3.S3Client({
        endpoint: this.endpoint,
        region: this.options.region,
        forcePathStyle: true,
        credentials: { accessKeyId: this.options.accessKey, secretAccessKey: this.options.secretKey },
        // Newer SDKs add CRC32 trailers in aws-chunked framing by default; several S3-compatible
        // servers store that framing as part of the object. Checksums only where the API demands them.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    })));
  }

  /**
   * Start-up check: the bucket answers, and is created when it does not exist yet (a fresh MinIO or
   * compose setup starts empty). Anything else (refused connection, bad credentials, timeout) is
   * ArtifactStoreUnavailable.
   */
  async ensureReady(timeoutMs = READY_TIMEOUT_MS): Promise<{ created: boolean }> {
    const where = `s3://${this.bucket} at ${this.endpoint}`;
    const signal = AbortSignal.timeout(timeoutMs);
    const { s3, client } = await this.connect();
    try {
      await client.send(new s3.HeadBucketCommand({ Bucket: this.bucket }), { abortSignal: signal });
      return { created: false };
    } catch (error) {
      if (!isMissing(error)) throw unavailable(where, error);
    }
    try {
      await client.send(new s3.CreateBucketCommand({ Bucket: this.bucket }), { abortSignal: signal });
      return { created: true };
    } catch (error) {
      throw unavailable(`${where} (the bucket is missing and could not be created)`, error);
    }
  }

  async put(key: string, body: Buffer | string | { path: string }): Promise<string> {
    validateArtifactKey(key);
    // A Buffer body has a known length, so the SDK sends a plain PUT instead of a chunked stream.
    const bytes =
      typeof body === 'string'
        ? Buffer.from(body, 'utf8')
        : Buffer.isBuffer(body)
          ? body
          : await readFile(body.path);
    const { s3, client } = await this.connect();
    await client.send(new s3.PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes }));
    return this.url(key);
  }

  /**
   * A body that fits one part goes up as a plain PUT; a larger one as a multipart upload, one part
   * in memory at a time. A failed stream aborts the upload, so no partial object appears.
   */
  async putStream(key: string, body: Readable): Promise<string> {
    validateArtifactKey(key);
    const { s3, client } = await this.connect();
    let uploadId: string | undefined;
    const parts: { ETag: string | undefined; PartNumber: number }[] = [];
    const sendPart = async (bytes: Buffer): Promise<void> => {
      if (uploadId === undefined) {
        const created = await client.send(
          new s3.CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key }),
        );
        uploadId = created.UploadId;
      }
      const PartNumber = parts.length + 1;
      const sent = await client.send(
        new s3.UploadPartCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          PartNumber,
          Body: bytes,
        }),
      );
      parts.push({ ETag: sent.ETag, PartNumber });
    };
    try {
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      for await (const chunk of body) {
        const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
        pending.push(bytes);
        pendingBytes += bytes.length;
        if (pendingBytes >= STREAM_PART_BYTES) {
          await sendPart(Buffer.concat(pending, pendingBytes));
          pending = [];
          pendingBytes = 0;
        }
      }
      const last = Buffer.concat(pending, pendingBytes);
      if (uploadId === undefined) {
        await client.send(new s3.PutObjectCommand({ Bucket: this.bucket, Key: key, Body: last }));
        return this.url(key);
      }
      if (last.length > 0) await sendPart(last);
      await client.send(
        new s3.CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
      return this.url(key);
    } catch (error) {
      if (uploadId !== undefined)
        await client
          .send(new s3.AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }))
          .catch(() => undefined);
      throw error;
    }
  }

  async open(key: string): Promise<Readable> {
    validateArtifactKey(key);
    const { s3, client } = await this.connect();
    try {
      const out = await client.send(new s3.GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (out.Body === undefined) return Readable.from([]);
      return Readable.fromWeb(out.Body.transformToWebStream() as Parameters<typeof Readable.fromWeb>[0]);
    } catch (error) {
      if (isMissing(error)) throw new ArtifactNotFoundError(key);
      throw error;
    }
  }

  async get(key: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.open(key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  url(key: string): string {
    validateArtifactKey(key);
    return `s3://${this.bucket}/${key}`;
  }

  keyOf(uri: string): string | null {
    const prefix = `s3://${this.bucket}/`;
    return uri.startsWith(prefix) ? validKeyOrNull(uri.slice(prefix.length)) : null;
  }

  async exists(key: string): Promise<boolean> {
    validateArtifactKey(key);
    const { s3, client } = await this.connect();
    try {
      await client.send(new s3.HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  // S3 answers a delete of an absent key with success too, so absence is asked first. A concurrent
  // delete between the two calls makes both callers report true; nothing else depends on it.
  async delete(key: string): Promise<boolean> {
    if (!(await this.exists(key))) return false;
    const { s3, client } = await this.connect();
    await client.send(new s3.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    return true;
  }

  async list(prefix: string): Promise<string[]> {
    validateArtifactPrefix(prefix);
    const { s3, client } = await this.connect();
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new s3.ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) if (object.Key !== undefined) keys.push(object.Key);
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    // S3 lists in UTF-8 byte order; the local store sorts by code units. One order for both.
    return keys.sort();
  }

  /** Closes the client's sockets. */
  async close(): Promise<void> {
    if (this.sdk !== null) (await this.sdk).client.destroy();
  }
}

function unavailable(where: string, error: unknown): ArtifactStoreUnavailable {
  const status = statusOf(error);
  const reason =
    status !== undefined
      ? `HTTP ${status} (${(error as Error).name})`
      : ((error as Error)?.message ?? String(error));
  return new ArtifactStoreUnavailable(`object store ${where} is not reachable: ${reason}`);
}
