import { AppConfig } from '../config/app-config';
import { ArtifactStore } from './artifact-store';
import { LocalArtifactStore } from './local-artifact-store';
import { S3ArtifactStore } from './s3-artifact-store';

const OBJECT_STORE_SETTINGS = [
  ['endpoint', 'SVC_OBJECT_STORE_ENDPOINT'],
  ['accessKey', 'SVC_OBJECT_STORE_ACCESS_KEY'],
  ['secretKey', 'SVC_OBJECT_STORE_SECRET_KEY'],
] as const;

/**
 * Picks the artifact backend from the configuration, without I/O. An object store that is selected
 * but only partly configured falls back to the local store with a warning, so a development setup
 * keeps working.
 */
export function createArtifactStore(config: AppConfig, warn: (msg: string) => void): ArtifactStore {
  const localRoot = config.storageRoot ?? config.artifactsDir;
  if (config.storageBackend === 'local') return new LocalArtifactStore(localRoot);

  const missing = OBJECT_STORE_SETTINGS.filter(([field]) => !config.objectStore[field]).map(([, env]) => env);
  const { endpoint, accessKey, secretKey, bucket, secure, region } = config.objectStore;
  if (missing.length > 0 || endpoint === null || accessKey === null || secretKey === null) {
    warn(
      `object store settings incomplete (missing ${missing.join(', ')}); using the local artifact store at ${localRoot}`,
    );
    return new LocalArtifactStore(localRoot);
  }
  return new S3ArtifactStore({ endpoint, accessKey, secretKey, bucket, secure, region });
}

/**
 * The process's artifact store, checked: an object store must answer (its bucket is created when
 * missing) or start-up fails with ArtifactStoreUnavailable.
 */
export async function openArtifactStore(
  config: AppConfig,
  log: { warn(msg: string): void; info(msg: string, fields?: Record<string, unknown>): void },
): Promise<ArtifactStore> {
  const store = createArtifactStore(config, (m) => log.warn(m));
  if (store instanceof S3ArtifactStore) {
    const { created } = await store.ensureReady();
    log.info('artifact store ready', {
      backend: 's3',
      endpoint: store.endpoint,
      bucket: store.bucket,
      bucket_created: created,
    });
  }
  return store;
}
