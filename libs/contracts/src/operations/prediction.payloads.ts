import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { IsValidUuid } from '../validators';
import { OptionalInteger, OptionalNumber } from '../ranges';

export const SEARCH_BACKENDS = ['diamond', 'numpy', 'hnsw'] as const;
export type SearchBackendName = (typeof SEARCH_BACKENDS)[number];
/** What a plain predict_go_terms (and /annotate) searches with: DIAMOND over the sequences. */
export const DEFAULT_SEARCH_BACKEND: SearchBackendName = 'diamond';
/** Vector backends search embeddings; the dataset export's features come from them. */
export const VECTOR_SEARCH_BACKENDS = ['numpy', 'hnsw'] as const;

export const DONOR_EVIDENCE = ['all', 'experimental'] as const;
export type DonorEvidence = (typeof DONOR_EVIDENCE)[number];

/** predict_go_terms (svc.predictions); also the body of POST /embeddings/predict. */
export class PredictGoTermsPayload {
  @ApiProperty({ format: 'uuid' }) @IsValidUuid() embedding_config_id!: string;
  @ApiProperty({ format: 'uuid' }) @IsValidUuid() annotation_set_id!: string;
  @ApiProperty({ format: 'uuid' }) @IsValidUuid() ontology_snapshot_id!: string;
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Predict for this query set; otherwise for every embedded protein',
  })
  @IsOptional()
  @IsValidUuid()
  query_set_id?: string;
  @OptionalInteger({
    min: 1,
    max: 100,
    default: 5,
    description:
      'k: neighbours per query (per aspect index) of an embedding search; diamond keeps its best 50 hits',
  })
  limit_per_entry?: number;
  @OptionalNumber({
    min: 0,
    max: 2,
    description: 'Drop neighbours farther than this cosine distance (0..2); embedding search only',
  })
  distance_threshold?: number;
  @OptionalInteger({
    min: 1,
    max: 5000,
    description: 'Queries per batch step; default 2000 with diamond, 100 with an embedding backend',
  })
  batch_size?: number;
  @ApiPropertyOptional({
    enum: SEARCH_BACKENDS,
    default: 'diamond',
    description:
      'diamond = DIAMOND blastp over the sequences (top 50 hits), scored by the homology blend with the term prior; ' +
      'numpy = exact embedding search; hnsw = approximate embedding search',
  })
  @IsOptional()
  @IsIn(SEARCH_BACKENDS)
  search_backend?: SearchBackendName;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() aspect_separated_knn?: boolean;
  @ApiPropertyOptional({
    description:
      'Global and local alignment features of every (query, donor) pair; default true with an embedding backend, ' +
      'false with diamond (whose hits already carry identity, bitscore and e-value)',
  })
  @IsOptional()
  @IsBoolean()
  compute_alignments?: boolean;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() compute_taxonomy?: boolean;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() compute_reranker_features?: boolean;
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() compute_v6_features?: boolean;
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() expand_votes_to_ancestors?: boolean;
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() compute_self_prior?: boolean;
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() compute_association?: boolean;
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() compute_ia?: boolean;
  @ApiPropertyOptional({
    enum: DONOR_EVIDENCE,
    description:
      'Which annotations may be transferred; default experimental with diamond (the blend was fitted so), all with an embedding backend',
  })
  @IsOptional()
  @IsIn(DONOR_EVIDENCE)
  donor_evidence?: DonorEvidence;
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsValidUuid()
  reranker_model_id?: string;
  @ApiPropertyOptional({
    default: true,
    description:
      "Never transfer from the query's own accession or an isoform of it (evaluation: no leakage). " +
      'False (one-click annotation) keeps an annotated reference as a donor of itself; ' +
      'its rows carry self_hit.',
  })
  @IsOptional()
  @IsBoolean()
  exclude_self?: boolean;
}

export class PredictionQueryItem {
  @IsString() @MinLength(1) @MaxLength(200) accession!: string;
  @IsInt() sequence_id!: number;
  @IsOptional() @IsString() taxonomy_id?: string | null;
}

/** A batch's queries: 1 to 5,000, each one checked. */
function BatchQueries(): PropertyDecorator {
  const checks = [
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(5000),
    ValidateNested({ each: true }),
    Type(() => PredictionQueryItem),
  ];
  return (target, key) => {
    for (const check of checks) check(target, key);
  };
}

/** Step on svc.predictions.batch: search, transfer and featurise one batch of queries. */
export class PredictionsBatchPayload {
  @IsValidUuid() prediction_set_id!: string;
  @BatchQueries()
  queries!: PredictionQueryItem[];
  @IsOptional() @IsString() reranker_artifact_uri?: string;
  @IsOptional() @IsString() reranker_feature_schema_sha?: string;
}

/** One batch's queries, as a search-ahead step hands them on. */
export class PredictionBatchQueries {
  @BatchQueries()
  queries!: PredictionQueryItem[];
}

/** Queries one search-ahead step may search in one DIAMOND run (all its batches together). */
export const SEARCH_AHEAD_QUERIES = 20_000;

/**
 * Step on svc.predictions.batch: one DIAMOND run over several batches' queries (at most
 * `SEARCH_AHEAD_QUERIES` in all), whose hits each batch step then scores without searching again.
 */
export class PredictionsSearchPayload {
  @IsValidUuid() prediction_set_id!: string;
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(SEARCH_AHEAD_QUERIES)
  @ValidateBy({
    name: 'searchAheadQueries',
    validator: {
      // Counted before the batches' own checks could walk an oversized message.
      validate: (value: unknown) =>
        Array.isArray(value) &&
        value.reduce(
          (n: number, b: unknown) =>
            n + (((b as { queries?: unknown })?.queries as unknown[] | undefined) ?? []).length,
          0,
        ) <= SEARCH_AHEAD_QUERIES,
      defaultMessage: () => `batches must hold at most ${SEARCH_AHEAD_QUERIES} queries in all`,
    },
  })
  @ValidateNested({ each: true })
  @Type(() => PredictionBatchQueries)
  batches!: PredictionBatchQueries[];
  @IsOptional() @IsString() reranker_artifact_uri?: string;
  @IsOptional() @IsString() reranker_feature_schema_sha?: string;
}

/** Step on svc.predictions.write: store one batch's rows and tick the parent's progress. */
export class PredictionsWritePayload {
  @IsValidUuid() prediction_set_id!: string;
  /**
   * The rows column by column, as one JSON text: the column names in `columns`, then one array per
   * column (`encodePredictionColumns`). One string, so the message is neither walked nor validated
   * value by value on arrival, and carries no key per row.
   */
  @IsOptional() @IsArray() @IsString({ each: true }) @ArrayMaxSize(100) columns?: string[];
  @IsOptional() @IsString() values?: string;
  /** Rows as column-name objects: messages queued before the columnar form. */
  @IsOptional() @IsArray() rows?: Record<string, unknown>[];
  @IsInt() @Min(0) query_count!: number;
  /** Names the batch, so that a redelivered write stores its rows and ticks once (see `batchKey`). */
  @IsOptional() @IsString() @MaxLength(100) batch_key?: string;
  /**
   * Per query of the write: `[accession, homologs, best identity or null, known terms]` (what its
   * terms rest on). Absent on messages queued before summaries existed.
   */
  @IsOptional() @IsArray() @ArrayMaxSize(10_000) query_summaries?: [string, number, number | null, number][];
  /**
   * What the write stores instead of its queries' prior-only rows, as one JSON text
   * (`encodeComposedPrior`): the set's prior and, per (protein, aspect), the homology weight the
   * reads compose those rows from. Absent: every row is in `values`.
   */
  @IsOptional() @IsString() composed_prior?: string;
}

export class LoadNcbiTaxonomyPayload {
  @ApiProperty({ description: 'nodes.dmp (or taxdump) path, file:// or http(s) URL; gzip recognised' })
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  nodes_url!: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) source_version?: string;
}
