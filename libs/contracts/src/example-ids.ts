import { ApiProperty } from '@nestjs/swagger';

/**
 * One example id per kind of row. The OpenAPI document shows the same id wherever the same row is
 * meant (a prediction set's `ontology_snapshot_id` is the snapshot view's `id`), so the examples of
 * related responses read as one consistent story.
 */
export const EXAMPLE_IDS = {
  user: '3f2b8c1e-5d4a-4e8b-9c7f-1a2b3c4d5e6f',
  apiKey: '9b1e6f0a-2c3d-4e5f-8a9b-0c1d2e3f4a5b',
  job: '7d0c3bb8-8f0a-4b4e-9d55-2b1f0c1f9b6e',
  ontologySnapshot: 'b1c9e7a2-4f3d-4a8e-8b6c-2d5f9e0a1c37',
  /** The reference set a prediction transfers from, and t0 of a holdout. */
  annotationSet: 'e4a7d2c9-1b8f-4c3e-a5d6-7f0b2e9c8a14',
  /** A later release of it: t1, the ground truth of a holdout. */
  laterAnnotationSet: 'b8e2f1c3-4d5a-4b6c-8e7f-9a0b1c2d3e4f',
  querySet: '3f2b8c1e-5d4a-4e7b-9c2f-1a6d8e0b7c45',
  embeddingConfig: 'a1b2c3d4-e5f6-5a7b-8c9d-0e1f2a3b4c5d',
  predictionSet: '3f0b8c52-6f7e-4d0a-9a51-1c2d3e4f5a6b',
  scoringConfig: '0b6f2f5e-1f3c-4f0e-8a8e-6d2b1c4a9e7f',
  reranker: '5c9e2b7a-3d41-4f6a-8b0c-1e2d3f4a5b6c',
  evaluationSet: '3f1d2c4e-5b6a-4f7e-8d9c-0a1b2c3d4e5f',
  evaluationResult: 'd9e8f7a6-b5c4-4d3e-8f2a-1b0c9d8e7f6a',
  dataset: '5c8e1f2a-7b3d-4e9c-a1f6-0d2b4c6e8a90',
  experimentRun: '8a7b6c5d-4e3f-4a2b-9c1d-0e9f8a7b6c5d',
  supportEntry: '6c1e2d3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  referenceBundle: '2e4c6a8b-0d1f-4e3a-9b5c-7d9f1b3d5e7a',
} as const;

export type IdKind = keyof typeof EXAMPLE_IDS;

/** A required UUID property naming a row of `kind`, documented with that kind's example id. */
export function IdProperty(kind: IdKind, options: { description?: string } = {}): PropertyDecorator {
  return ApiProperty({ format: 'uuid', example: EXAMPLE_IDS[kind], ...options });
}
