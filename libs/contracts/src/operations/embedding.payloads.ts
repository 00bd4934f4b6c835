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
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsValidUuid } from '../validators';
import { OptionalInteger } from '../ranges';

export class ComputeEmbeddingsPayload {
  @ApiProperty({ format: 'uuid' }) @IsValidUuid() embedding_config_id!: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'Embed this query set; otherwise every protein' })
  @IsOptional()
  @IsValidUuid()
  query_set_id?: string;
  @ApiPropertyOptional({
    enum: ['cpu', 'cuda', 'auto'],
    default: 'cpu',
    description: 'This build runs on CPU; cuda falls back to CPU',
  })
  @IsOptional()
  @IsIn(['cpu', 'cuda', 'auto'])
  device?: 'cpu' | 'cuda' | 'auto';
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() skip_existing?: boolean;
  @OptionalInteger({ min: 1, max: 5000, default: 200 }) sequences_per_job?: number;
  @OptionalInteger({ min: 1, max: 512, default: 16 }) batch_size?: number;
}

/** Step on svc.embeddings.batch: embed these sequences. */
export class EmbeddingsBatchPayload {
  @IsValidUuid() embedding_config_id!: string;
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(5000) @IsInt({ each: true }) sequence_ids!: number[];
  @IsInt() @Min(1) @Max(512) batch_size!: number;
}

export class EmbeddedSequenceItem {
  @IsInt() sequence_id!: number;
  /** Base64 of little-endian float32 vectors, one per chunk. */
  @IsArray() @ArrayMinSize(1) @IsString({ each: true }) chunks!: string[];
}

/** Step on svc.embeddings.write: store these vectors and tick the parent's progress. */
export class EmbeddingsWritePayload {
  @IsValidUuid() embedding_config_id!: string;
  @IsArray() @ValidateNested({ each: true }) @Type(() => EmbeddedSequenceItem) items!: EmbeddedSequenceItem[];
  /** Sequences this write completes (progress ticks by this). */
  @IsInt() @Min(0) sequence_count!: number;
  /** Names the batch, so that a redelivered write stores its vectors and ticks once (see `batchKey`). */
  @IsOptional() @IsString() @MaxLength(100) batch_key?: string;
}
