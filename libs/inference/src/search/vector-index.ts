import type { SearchHit } from '@svc/domain';

/** A reference matrix held in memory: n rows of `dimensions` L2-normalised float32 values. */
export interface ReferenceMatrix {
  readonly rows: number;
  readonly dimensions: number;
  readonly data: Float32Array;
}

export interface VectorIndex {
  readonly backend: string;
  readonly size: number;
  /** k nearest rows for each query row (nearest first), cosine distance in [0, 2]. */
  search(queries: Float32Array, k: number): Promise<SearchHit[][]>;
}

export interface VectorSearchBackend {
  readonly name: string;
  readonly exact: boolean;
  build(matrix: ReferenceMatrix): VectorIndex;
}
