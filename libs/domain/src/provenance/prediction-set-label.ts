/**
 * What a prediction set is called where people read it (lists, titles, evaluation results, the CLI):
 * the query set it predicted, then the settings that tell two runs of the same input apart (method,
 * blend version, reference, self-hits), then when it was made. The id stays one click away.
 */
export interface PredictionSetLabelParts {
  /** The query set's name; null when the set predicted every protein of an embedding config. */
  query_set_name: string | null;
  search_backend: string;
  /** The homology blend's version (DIAMOND sets); null for the embedding backends or older sets. */
  blend_version: string | null;
  /** The embedding config's name: only an embedding backend uses it. */
  embedding_config_name: string | null;
  /** The installed reference's name, else the annotation set's label. */
  reference: string | null;
  /** Whether a query's own accession was left out as a donor (evaluation mode). */
  exclude_self: boolean;
  created_at: string;
}

const BACKEND_NAMES: Record<string, string> = {
  diamond: 'DIAMOND',
  numpy: 'embedding kNN (exact)',
  hnsw: 'embedding kNN (HNSW)',
};

/** The search method in words: `DIAMOND, homology-blend-v1` or `embedding kNN (exact) over kmer-v1`. */
export function searchMethodLabel(
  parts: Pick<PredictionSetLabelParts, 'search_backend' | 'blend_version' | 'embedding_config_name'>,
): string {
  const backend = BACKEND_NAMES[parts.search_backend] ?? parts.search_backend;
  if (parts.search_backend === 'diamond')
    return parts.blend_version ? `${backend}, ${parts.blend_version}` : backend;
  return parts.embedding_config_name ? `${backend} over ${parts.embedding_config_name}` : backend;
}

/** `human20 · DIAMOND, homology-blend-v1 · human-exp · self-hits kept · 2026-11-29 12:03` */
export function predictionSetLabel(parts: PredictionSetLabelParts): string {
  const created = new Date(parts.created_at);
  const when = Number.isNaN(created.getTime())
    ? parts.created_at
    : created.toISOString().replace('T', ' ').slice(0, 16);
  return [
    parts.query_set_name ?? 'all proteins',
    searchMethodLabel(parts),
    parts.reference,
    parts.exclude_self ? 'self-hits excluded' : 'self-hits kept',
    when,
  ]
    .filter((p): p is string => p !== null && p !== '')
    .join(' · ');
}
