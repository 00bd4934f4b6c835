import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { VisibilityName, VisibilityProperty } from '../ownership/ownership.properties';
import { EXAMPLE_IDS, IdProperty } from '../example-ids';

/** A registered research dataset: frozen train/eval tables in the artifact store and their manifest. */
export class DatasetView {
  @IdProperty('dataset') id!: string;
  @ApiProperty({ example: 'goa-2024-2025-esm2' }) name!: string;
  @ApiProperty({
    enum: ['export_research_dataset', 'import_by_reference'],
    example: 'export_research_dataset',
  })
  operation!: 'export_research_dataset' | 'import_by_reference';
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String, description: 'The export job' })
  job_id!: string | null;
  @ApiPropertyOptional({
    format: 'uuid',
    nullable: true,
    type: String,
    example: EXAMPLE_IDS.embeddingConfig,
  })
  embedding_config_id!: string | null;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }) ontology_snapshot_id!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'goa' }) annotation_source!: string | null;
  @ApiProperty({ example: 5, description: 'Nearest neighbours per query' }) k!: number;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'datasets/goa-2024-2025-esm2/' })
  key_prefix!: string | null;
  @ApiProperty({ example: 's3', description: '`s3` or `local`' }) storage_backend!: string;
  @ApiProperty({ example: 's3://svc-artifacts/datasets/goa-2024-2025-esm2/train.parquet' })
  train_uri!: string;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    example: 's3://svc-artifacts/datasets/goa-2024-2025-esm2/eval.parquet',
  })
  eval_uri!: string | null;
  @ApiProperty({ example: 's3://svc-artifacts/datasets/goa-2024-2025-esm2/manifest.json' })
  manifest_uri!: string;
  @ApiProperty({
    example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    description: 'sha256 of the manifest bytes',
  })
  manifest_sha!: string;
  @ApiProperty({ example: '2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae' })
  schema_sha!: string;
  @ApiPropertyOptional({ nullable: true, type: String }) schema_sha_v2!: string | null;
  @ApiProperty({ example: 184320 }) n_train_rows!: number;
  @ApiProperty({ example: 20480 }) n_eval_rows!: number;
  @ApiProperty({
    type: [String],
    example: ['220->221', '221->222'],
    description: 'Annotation-set version pairs (old->new) of the train split',
  })
  train_snapshot_pairs!: string[];
  @ApiPropertyOptional({ nullable: true, type: String, example: '222->223' })
  eval_snapshot_pair!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: '1.4.0' }) producer_version!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'a1b2c3d' }) producer_git_sha!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) meta!: Record<string, unknown>;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String, description: 'Who registered it' })
  owner_user_id!: string | null;
  @VisibilityProperty('owner')
  visibility!: VisibilityName;
  @ApiProperty({ format: 'date-time', example: '2025-11-20T14:03:27.512034Z' }) created_at!: string;
}
