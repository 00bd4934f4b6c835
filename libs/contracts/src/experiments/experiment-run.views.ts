import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { VisibilityName, VisibilityProperty } from '../ownership/ownership.properties';
import { IdProperty } from '../example-ids';

const STATUSES = ['planned', 'running', 'done', 'abandoned'] as const;

/** An experiment run: a research notebook entry with its status stamps. */
export class ExperimentRunView {
  @IdProperty('experimentRun') id!: string;
  @ApiProperty({ example: 'esm2-k10-rerank' }) name!: string;
  @ApiProperty({ enum: STATUSES, example: 'running' }) status!: (typeof STATUSES)[number];
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    example: 'ESM-2 neighbours with a LightGBM re-ranker',
  })
  description!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'Re-ranking lifts NK BPO Fmax by 5 points' })
  hypothesis!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) findings!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, example: { k: 10 } })
  config!: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true, example: { git_sha: '4f2a9c1' } })
  provenance!: Record<string, unknown>;
  @ApiProperty({ type: [String], example: ['esm2', 'rerank'] }) tags!: string[];
  @ApiPropertyOptional({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'Stamped when the run first moves to running',
  })
  started_at!: string | null;
  @ApiPropertyOptional({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'Stamped when the run moves to done or abandoned',
  })
  finished_at!: string | null;
  @ApiProperty({ format: 'date-time', example: '2025-03-14T09:26:53.589Z' }) created_at!: string;
  @ApiPropertyOptional({ nullable: true, type: Number }) k!: number | null;
  @ApiPropertyOptional({ nullable: true, type: String }) plm!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) propagation!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) reranker_spec_id!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) eval_set_name!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) axis_tuple_shortid!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) feature_schema_sha!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) schema_sha_v2!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) eval_set_manifest_sha!: string | null;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true })
  ensemble_spec!: Record<string, unknown> | null;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }) owner_user_id!: string | null;
  @VisibilityProperty('owner') visibility!: VisibilityName;
}
