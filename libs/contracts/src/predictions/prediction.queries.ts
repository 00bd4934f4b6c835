import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsValidUuid } from '../validators';
import { parseBooleanParam } from '../transforms';
import { LimitParam, NumberParam, OffsetParam } from '../ranges';

export class PredictionProteinsQuery {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) search?: string;
  @LimitParam({ default: 50, max: 1000 })
  limit?: number;
  @OffsetParam()
  offset?: number;
}

export class GoTermDistributionQuery {
  @LimitParam({ default: 50, max: 1000 })
  limit?: number;
  @NumberParam({ min: 0, max: 1, default: 0, description: 'Count only rows scoring at least this (0..1)' })
  min_score?: number;
  @ApiPropertyOptional({
    enum: ['all', 'homology'],
    default: 'all',
    description:
      "`homology`: count only rows a homolog (or the protein's own annotation) backs, leaving out terms that rest on the prior alone",
  })
  @IsOptional()
  @IsIn(['all', 'homology'])
  basis?: 'all' | 'homology';
}

export class PredictionExportQuery {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) accession?: string;
  @ApiPropertyOptional({ enum: ['F', 'P', 'C'] }) @IsOptional() @IsIn(['F', 'P', 'C']) aspect?:
    'F' | 'P' | 'C';
  @NumberParam({ min: 0, max: 2, description: 'Keep rows with distance <= this' })
  max_distance?: number;
  @NumberParam({
    min: 0,
    max: 1,
    default: 0,
    description:
      'Keep rows (TSV) or terms (CAFA, GAF, JSON) whose score is at least this (0..1); 0, the default, keeps everything',
  })
  min_score?: number;
}

/** GAF, JSON and ZIP downloads: the same filters as the TSV. */
export class StandardExportQuery extends PredictionExportQuery {}

export class CafaExportQuery extends PredictionExportQuery {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Restrict to the NK and LK proteins of this evaluation set',
  })
  @IsOptional()
  @IsValidUuid()
  eval_id?: string;
}

export class ResolvePredictionQuery {
  @ApiProperty({ format: 'uuid' }) @IsValidUuid() query_set_id!: string;
  @ApiProperty({ format: 'uuid' }) @IsValidUuid() embedding_config_id!: string;
}

export class ScoreTsvQuery {
  @ApiProperty({ format: 'uuid' }) @IsValidUuid() scoring_config_id!: string;
}

export class AnnotateQuery {
  @ApiPropertyOptional({ default: false, description: 'true needs a researcher account' })
  @IsOptional()
  @Transform(parseBooleanParam)
  @IsBoolean()
  save_history?: boolean;
}

export class PredictionSetMetricsQuery {
  @ApiProperty({ format: 'uuid' }) @IsValidUuid() evaluation_set_id!: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsValidUuid() scoring_config_id?: string;
}

export class RerankQuery {
  @ApiPropertyOptional({ format: 'uuid', description: "Default: the prediction set's bound re-ranker" })
  @IsOptional()
  @IsValidUuid()
  reranker_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsValidUuid() evaluation_set_id?: string;
}
