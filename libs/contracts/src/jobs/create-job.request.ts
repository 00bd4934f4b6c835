import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsObject, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { trimString } from '../transforms';
import { OPERATION_NAMES } from '../operations/catalog';

export class CreateJobRequest {
  @ApiProperty({
    enum: OPERATION_NAMES,
    enumName: 'OperationName',
    description: 'Registered operation name',
    example: 'ping',
  })
  @Transform(trimString)
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  operation!: string;

  @ApiProperty({ description: 'Queue the job id is published to', example: 'svc.ping' })
  @Transform(trimString)
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  queue_name!: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, default: {} })
  @IsOptional()
  @IsObject()
  payload?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, default: {} })
  @IsOptional()
  @IsObject()
  meta?: Record<string, unknown>;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 10_000 })
  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  description?: string | null;

  @ApiPropertyOptional({ type: [String], default: [], maxItems: 50 })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  tags?: string[];
}
