import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IdProperty } from '../example-ids';

const EMBEDDING_BACKENDS = ['kmer', 'esm', 't5', 'ankh'] as const;
const LAYER_AGGREGATIONS = ['mean', 'last', 'concat'] as const;
const POOLINGS = ['mean', 'max', 'cls', 'mean_max'] as const;

/** An embedding recipe in its canonical form (defaults filled in), with its stored embeddings. */
export class EmbeddingConfigView {
  @IdProperty('embeddingConfig', {
    description: 'UUIDv5 of the canonical recipe: the same recipe has the same id everywhere',
  })
  id!: string;
  @ApiProperty({ example: 'kmer-v1' }) model_name!: string;
  @ApiProperty({ enum: EMBEDDING_BACKENDS, example: 'kmer' })
  model_backend!: (typeof EMBEDDING_BACKENDS)[number];
  @ApiProperty({ type: [Number], example: [0], description: 'Layers to read, 0 being the last' })
  layer_indices!: number[];
  @ApiProperty({ enum: LAYER_AGGREGATIONS, example: 'mean' }) layer_agg!: (typeof LAYER_AGGREGATIONS)[number];
  @ApiProperty({ enum: POOLINGS, example: 'mean' }) pooling!: (typeof POOLINGS)[number];
  @ApiProperty({ example: false }) normalize_residues!: boolean;
  @ApiProperty({ example: true }) normalize!: boolean;
  @ApiProperty({ example: 1022 }) max_length!: number;
  @ApiProperty({ example: false }) use_chunking!: boolean;
  @ApiProperty({ example: 1000 }) chunk_size!: number;
  @ApiProperty({ example: 0 }) chunk_overlap!: number;
  @ApiProperty({ example: 1 }) embedding_scale!: number;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'default k-mer recipe' })
  description!: string | null;
  @ApiProperty({ format: 'date-time', example: '2025-01-15T10:42:00.000Z' }) created_at!: string;
  @ApiProperty({
    example: 5120,
    description:
      'Distinct sequences embedded with this config. Operators and administrators count every ' +
      "sequence; other callers the public ones (proteins' and those of public query sets)",
  })
  embedding_count!: number;
}

/** What deleting an embedding config removed with it. */
export class EmbeddingConfigDeletionView {
  @IdProperty('embeddingConfig') id!: string;
  @ApiProperty({ example: true }) deleted!: boolean;
  @ApiProperty({ example: 5120 }) embeddings_deleted!: number;
  @ApiProperty({ example: 348 }) predictions_deleted!: number;
  @ApiProperty({ example: 2 }) prediction_sets_deleted!: number;
}

export class UnindexedEmbeddingsCountView {
  @ApiProperty({
    example: 42,
    description: 'Stored embeddings whose sequence no protein and no query-set entry references',
  })
  count!: number;
}

export class UnindexedEmbeddingsDeletionView {
  @ApiProperty({ example: 42, description: 'Embeddings removed' }) deleted!: number;
}
