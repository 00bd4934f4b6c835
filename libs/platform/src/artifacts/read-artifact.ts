import { readText, SourceError } from '../sources/text-source';
import { ArtifactStore } from './artifact-store';

/**
 * Reads a stored artifact by the URI persisted for it (a re-ranker's `artifact_uri`): URIs the
 * configured store issued go through the store (so `s3://` works wherever the store does); other
 * `file://` URIs, paths and http(s) URLs are read as plain sources.
 */
export async function readArtifactText(uri: string, store: ArtifactStore): Promise<string> {
  const key = store.keyOf(uri);
  if (key !== null) return (await store.get(key)).toString('utf8');
  if (/^s3:\/\//i.test(uri))
    throw new SourceError(
      'unsupported_source',
      `${uri} is not in the configured artifact store (${store.url('x').replace(/x$/, '')})`,
    );
  return readText(uri);
}
