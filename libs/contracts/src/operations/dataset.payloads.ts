import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { IsTimestamp, IsValidUuid } from '../validators';
import { SEARCH_BACKENDS, SearchBackendName } from './prediction.payloads';
import { MineQuery } from '../ownership/mine.query';
import { IntegerField, LimitParam, OptionalInteger } from '../ranges';

export const ANNOTATION_SOURCES = ['goa', 'quickgo'] as const;

/** Dataset names become artifact key segments (`datasets/<output_name>/`). */
export const DATASET_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * export_research_dataset (svc.training); also the body of POST /datasets (CreateDatasetRequest).
 * Versions are the integer `source_version`s of annotation sets of `annotation_source` loaded
 * against the snapshot: consecutive train versions make the training pairs, the newest train version
 * against the newest test version makes the evaluation pair.
 */
export class ExportResearchDatasetPayload {
  @ApiProperty({ format: 'uuid' }) @IsValidUuid() embedding_config_id!: string;
  @ApiProperty({ format: 'uuid' }) @IsValidUuid() ontology_snapshot_id!: string;
  @ApiProperty({ type: [Number], description: 'At least two annotation-set versions (integers)' })
  @IsArray()
  @ArrayMinSize(2)
  @ArrayMaxSize(50)
  @IsInt({ each: true })
  @Min(0, { each: true })
  train_versions!: number[];
  @ApiPropertyOptional({ type: [Number], default: [], description: 'Versions after the train versions' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsInt({ each: true })
  @Min(0, { each: true })
  test_versions?: number[];
  @ApiPropertyOptional({ enum: ANNOTATION_SOURCES, default: 'goa' })
  @IsOptional()
  @IsIn(ANNOTATION_SOURCES)
  annotation_source?: (typeof ANNOTATION_SOURCES)[number];
  @ApiProperty({ pattern: DATASET_NAME_PATTERN.source, description: 'Dataset name and key folder' })
  @IsString()
  @Matches(DATASET_NAME_PATTERN, {
    message: 'output_name must be 1-128 letters, digits, ".", "_" or "-", starting with a letter or digit',
  })
  output_name!: string;
  @OptionalInteger({ min: 1, max: 100, default: 5 }) k?: number;
  @ApiPropertyOptional({ enum: SEARCH_BACKENDS, default: 'numpy' })
  @IsOptional()
  @IsIn(SEARCH_BACKENDS)
  search_backend?: SearchBackendName;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() compute_alignments?: boolean;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() compute_taxonomy?: boolean;
  @ApiPropertyOptional({
    default: false,
    description: 'Add principal components of the query embedding (fitted on the train queries)',
  })
  @IsOptional()
  @IsBoolean()
  use_embedding_pca?: boolean;
}

/** POST /datasets/import-by-reference: files already in the store; the server reads the manifest. */
export class ImportDatasetByReferenceRequest {
  @ApiProperty() @IsString() @Matches(DATASET_NAME_PATTERN) name!: string;
  @ApiProperty() @IsString() @MinLength(1) @MaxLength(2000) train_uri!: string;
  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  eval_uri?: string | null;
  @ApiProperty() @IsString() @MinLength(1) @MaxLength(2000) manifest_uri!: string;
  @ApiProperty({ format: 'uuid' }) @IsValidUuid() embedding_config_id!: string;
  @ApiPropertyOptional({ format: 'uuid', nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsValidUuid()
  ontology_snapshot_id?: string | null;
  @ApiProperty() @IsString() @MinLength(1) @MaxLength(100) annotation_source!: string;
  @IntegerField({ min: 1, max: 100 }) k!: number;
  @ApiProperty()
  @IsString()
  @Matches(/^[0-9a-f]{64}$/, { message: 'schema_sha must be 64 hex digits' })
  schema_sha!: string;
  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @Matches(/^[0-9a-f]{64}$/, { message: 'schema_sha_v2 must be 64 hex digits' })
  schema_sha_v2?: string | null;
  @IntegerField({ min: 0 }) n_train_rows!: number;
  @IntegerField({ min: 0 }) n_eval_rows!: number;
  @ApiPropertyOptional() @IsOptional() @IsObject() meta?: Record<string, unknown>;
}

export class ListDatasetsQuery extends MineQuery {
  @LimitParam({ default: 50, max: 500 })
  limit?: number;
  @ApiPropertyOptional({ description: 'Only datasets created strictly before this time' })
  @IsOptional()
  @IsTimestamp()
  after?: string;
}
