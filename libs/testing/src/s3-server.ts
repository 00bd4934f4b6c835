import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface S3TestServer {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /** Settings that point the service's object store at this server (bucket not created). */
  env(bucket: string): Record<string, string>;
  close(): Promise<void>;
}

/** A real S3-protocol server (s3rver) on loopback, storing into a temporary folder. */
export async function startS3Server(): Promise<S3TestServer> {
  // Loaded on demand so suites without an object store do not pay for the server's dependencies.
  const { default: S3rver } = await import('s3rver');
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    env: (bucket) => ({
      SVC_STORAGE_BACKEND: 's3',
      SVC_OBJECT_STORE_ENDPOINT: endpoint,
      SVC_OBJECT_STORE_ACCESS_KEY: 'S3RVER',
      SVC_OBJECT_STORE_SECRET_KEY: 'S3RVER',
      SVC_OBJECT_STORE_BUCKET: bucket,
    }),
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
