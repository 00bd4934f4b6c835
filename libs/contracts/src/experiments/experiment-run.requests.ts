import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsArray, IsIn, IsObject, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { IsTimestamp } from '../validators';
import { trimString } from '../transforms';
import { MineQuery } from '../ownership/mine.query';
import { LimitParam } from '../ranges';

const STATUSES = ['planned', 'running', 'done', 'abandoned'] as const;

export class CreateExperimentRunRequest {
  @ApiProperty() @Transform(trimString) @IsString() @MinLength(1) @MaxLength(200) name!: string;
  @ApiPropertyOptional({ nullable: true }) @IsOptional() @IsString() @MaxLength(20_000) description?:
    string | null;
  @ApiPropertyOptional({ nullable: true }) @IsOptional() @IsString() @MaxLength(20_000) hypothesis?:
    string | null;
  @ApiPropertyOptional({ default: {} }) @IsOptional() @IsObject() config?: Record<string, unknown>;
  @ApiPropertyOptional({ default: {} }) @IsOptional() @IsObject() provenance?: Record<string, unknown>;
  @ApiPropertyOptional({ default: [] }) @IsOptional() @IsArray() @IsString({ each: true }) tags?: string[];
}

export class UpdateExperimentRunRequest {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(20_000) description?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(20_000) hypothesis?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(100_000) findings?: string;
  @ApiPropertyOptional({ enum: STATUSES }) @IsOptional() @IsIn(STATUSES) status?: (typeof STATUSES)[number];
  @ApiPropertyOptional() @IsOptional() @IsObject() config?: Record<string, unknown>;
  @ApiPropertyOptional() @IsOptional() @IsObject() provenance?: Record<string, unknown>;
  @ApiPropertyOptional() @IsOptional() @IsArray() @IsString({ each: true }) tags?: string[];
}

export class ListExperimentRunsQuery extends MineQuery {
  @ApiPropertyOptional({ enum: STATUSES }) @IsOptional() @IsIn(STATUSES) status?: string;
  @LimitParam({ default: 50, max: 500 })
  limit?: number;
  @ApiPropertyOptional({ description: 'Only runs created strictly before this time' })
  @IsOptional()
  @IsTimestamp()
  after?: string;
}

/** POST /support: a thumbs-up with an optional comment. */
export class SupportCreate {
  @ApiPropertyOptional({ maxLength: 2000 }) @IsOptional() @IsString() @MaxLength(2000) comment?: string;
}
