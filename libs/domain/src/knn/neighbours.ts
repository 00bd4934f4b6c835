/** One search hit: a row of the reference matrix and its cosine distance (0..2) to the query. */
export interface SearchHit {
  readonly refIndex: number;
  readonly distance: number;
}

export interface SelectedNeighbour extends SearchHit {
  /** 1-based rank among the kept neighbours. */
  readonly rank: number;
}

/** Whether a reference entry is the query itself: its accession, or an entry of its canonical protein. */
export function isSelfHit(input: {
  queryAccession: string;
  queryCanonical: string;
  accession: string;
  canonical: string;
}): boolean {
  return input.accession === input.queryAccession || input.canonical === input.queryCanonical;
}

/**
 * Keeps the k nearest hits that may donate to the query: none beyond the distance threshold and, unless
 * `excludeSelf` is false, never the query itself nor another entry of the same canonical protein (in an
 * evaluation an isoform would leak the answer; in annotation the query's own entry is its best donor).
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
  /** Default true. */
  excludeSelf?: boolean;
}): SelectedNeighbour[] {
  const excludeSelf = input.excludeSelf ?? true;
  const kept: SelectedNeighbour[] = [];
  for (const hit of input.hits) {
    if (kept.length >= input.k) break;
    if (!Number.isFinite(hit.distance)) continue;
    if (input.distanceThreshold != null && hit.distance > input.distanceThreshold) break;
    if (
      excludeSelf &&
      isSelfHit({
        queryAccession: input.queryAccession,
        queryCanonical: input.queryCanonical,
        accession: input.accessionOf(hit.refIndex),
        canonical: input.canonicalOf(hit.refIndex),
      })
    )
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
