import { readBytes, readText, SourceError } from '../sources/text-source';
import { ArtifactNotFoundError, ArtifactStore } from './artifact-store';

/**
 * Reads a stored artifact by the URI persisted for it (a re-ranker's `artifact_uri`): URIs the
 * configured store issued go through the store (so `s3://` works wherever the store does); other
 * `file://` URIs, paths and http(s) URLs are read as plain sources.
 */
export async function readArtifactText(uri: string, store: ArtifactStore): Promise<string> {
  const key = storedKey(uri, store);
  if (key !== null) return (await store.get(key)).toString('utf8');
  return readText(uri);
}

/** The artifact's bytes exactly as stored (no gzip decoding), by the same rules: for checksums. */
export async function readArtifactBytes(uri: string, store: ArtifactStore): Promise<Buffer> {
  const key = storedKey(uri, store);
  if (key !== null) {
    try {
      return await store.get(key);
    } catch (error) {
      if (error instanceof ArtifactNotFoundError)
        throw new SourceError('source_not_found', `nothing is stored at ${uri}`);
      throw error;
    }
  }
  return readBytes(uri);
}

function storedKey(uri: string, store: ArtifactStore): string | null {
  const key = store.keyOf(uri);
  if (key === null && /^s3:\/\//i.test(uri))
    throw new SourceError(
      'unsupported_source',
      `${uri} is not in the configured artifact store (${store.url('x').replace(/x$/, '')})`,
    );
  return key;
}
