import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { IsValidUuid } from '../validators';
import { parseBooleanParam, parseIntegerParam } from '../transforms';

function parseNumberParam({ value }: { value: unknown }): unknown {
  if (typeof value !== 'string' || value.trim() === '' || !Number.isFinite(Number(value))) return value;
  return Number(value);
}

export class PredictionProteinsQuery {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) search?: string;
  @ApiPropertyOptional({ default: 50 })
  @IsOptional()
  @Transform(parseIntegerParam)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;
  @ApiPropertyOptional({ default: 0 })
  @IsOptional()
  @Transform(parseIntegerParam)
  @IsInt()
  @Min(0)
  offset?: number;
}

export class GoTermDistributionQuery {
  @ApiPropertyOptional({ default: 50 })
  @IsOptional()
  @Transform(parseIntegerParam)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;
}

export class PredictionExportQuery {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) accession?: string;
  @ApiPropertyOptional({ enum: ['F', 'P', 'C'] }) @IsOptional() @IsIn(['F', 'P', 'C']) aspect?:
    'F' | 'P' | 'C';
  @ApiPropertyOptional({ description: 'Keep rows with distance <= this' })
  @IsOptional()
  @Transform(parseNumberParam)
  @IsNumber()
  @Min(0)
  @Max(2)
  max_distance?: number;
}

export class CafaExportQuery extends PredictionExportQuery {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Restrict to the NK and LK proteins of this evaluation set',
  })
  @IsOptional()
  @IsUUID()
  eval_id?: string;
}

export class ResolvePredictionQuery {
  @IsValidUuid() query_set_id!: string;
  @IsValidUuid() embedding_config_id!: string;
}

export class ScoreTsvQuery {
  @IsValidUuid() scoring_config_id!: string;
}

export class AnnotateQuery {
  @ApiPropertyOptional({ default: false, description: 'true needs a researcher account' })
  @IsOptional()
  @Transform(parseBooleanParam)
  @IsBoolean()
  save_history?: boolean;
}

export class PredictionSetMetricsQuery {
  @IsValidUuid() evaluation_set_id!: string;
  @IsOptional() @IsValidUuid() scoring_config_id?: string;
}

export class RerankQuery {
  @IsOptional() @IsValidUuid() reranker_id?: string;
  @IsOptional() @IsValidUuid() evaluation_set_id?: string;
}
