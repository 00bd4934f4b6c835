import { AppConfig } from '../config/app-config';
import { ArtifactStore } from './artifact-store';
import { LocalArtifactStore } from './local-artifact-store';

const OBJECT_STORE_SETTINGS = [
  ['endpoint', 'SVC_OBJECT_STORE_ENDPOINT'],
  ['accessKey', 'SVC_OBJECT_STORE_ACCESS_KEY'],
  ['secretKey', 'SVC_OBJECT_STORE_SECRET_KEY'],
] as const;

/**
 * Picks the artifact backend from the configuration. An object store that is selected but only partly
 * configured falls back to the local store with a warning, so a development setup keeps working.
 */
export function createArtifactStore(config: AppConfig, warn: (msg: string) => void): ArtifactStore {
  const localRoot = config.storageRoot ?? config.artifactsDir;
  if (config.storageBackend === 'local') return new LocalArtifactStore(localRoot);

  const missing = OBJECT_STORE_SETTINGS.filter(([field]) => !config.objectStore[field]).map(([, env]) => env);
  if (missing.length > 0) {
    warn(
      `object store settings incomplete (missing ${missing.join(', ')}); using the local artifact store at ${localRoot}`,
    );
    return new LocalArtifactStore(localRoot);
  }
  throw new Error('the S3 artifact backend is not available in this build');
}
