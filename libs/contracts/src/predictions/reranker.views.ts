import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IdProperty } from '../example-ids';
import { STORED_SOURCE_TEXT } from '../reference/reference.views';

/** A registered LightGBM re-ranker. */
export class RerankerView {
  @IdProperty('reranker') id!: string;
  @ApiProperty({ example: 'lgbm-goa-2025-01' }) name!: string;
  @ApiProperty({
    example: 's3://svc-artifacts/rerankers/run-2025-01-15/model.txt',
    description: `The booster's file. ${STORED_SOURCE_TEXT}`,
  })
  artifact_uri!: string;
  @ApiProperty({ example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08' })
  feature_schema_sha!: string;
  @ApiProperty({ type: [String], example: ['distance', 'identity_sw', 'vote_count'] })
  feature_names!: string[];
  @ApiPropertyOptional({ nullable: true, type: String, example: 'lambdarank' }) objective!: string | null;
  @ApiProperty({ example: 'features: distance-first\n' }) spec_yaml!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The training run record (run.json)',
  })
  run!: Record<string, unknown>;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'run-2025-01-15' }) run_id!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, example: { fmax: 0.61 } })
  metrics!: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true, example: { distance: 412, identity_sw: 230 } })
  feature_importance!: Record<string, unknown>;
  @ApiPropertyOptional({ nullable: true, type: String }) dataset_id!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) external_source!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) prediction_set_id!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) evaluation_set_id!: string | null;
  @ApiProperty({ enum: ['upload', 'reference'], example: 'upload' }) import_kind!: 'upload' | 'reference';
  @ApiProperty({ format: 'date-time', example: '2025-01-15T10:42:00.000Z' }) created_at!: string;
}

export class RerankerDeletionView {
  @IdProperty('reranker') id!: string;
  @ApiProperty({ example: true }) deleted!: boolean;
  @ApiProperty({ example: true, description: 'An uploaded booster was removed from the artifact store' })
  artifact_deleted!: boolean;
}
