/** One search hit: a row of the reference matrix and its cosine distance (0..2) to the query. */
export interface SearchHit {
  readonly refIndex: number;
  readonly distance: number;
}

export interface SelectedNeighbour extends SearchHit {
  /** 1-based rank among the kept neighbours. */
  readonly rank: number;
}

/**
 * Keeps the k nearest hits that may donate to the query: never the query itself, nor another entry of
 * the same canonical protein (an isoform would leak the answer), and none beyond the distance threshold.
 * Hits must arrive nearest first; ties keep the search order.
 */
export function selectNeighbours(input: {
  hits: readonly SearchHit[];
  k: number;
  queryAccession: string;
  queryCanonical: string;
  accessionOf: (refIndex: number) => string;
  canonicalOf: (refIndex: number) => string;
  distanceThreshold?: number | null;
}): SelectedNeighbour[] {
  const kept: SelectedNeighbour[] = [];
  for (const hit of input.hits) {
    if (kept.length >= input.k) break;
    if (!Number.isFinite(hit.distance)) continue;
    if (input.distanceThreshold != null && hit.distance > input.distanceThreshold) break;
    const accession = input.accessionOf(hit.refIndex);
    if (accession === input.queryAccession || input.canonicalOf(hit.refIndex) === input.queryCanonical)
      continue;
    kept.push({ refIndex: hit.refIndex, distance: Math.max(0, hit.distance), rank: kept.length + 1 });
  }
  return kept;
}

/** Population standard deviation (0 for fewer than two values). */
export function standardDeviation(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, b) => a + (b - mean) * (b - mean), 0) / values.length;
  return Math.sqrt(variance);
}
