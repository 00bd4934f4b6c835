import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsObject, IsOptional, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';

const nullableText = () => ValidateIf((_: unknown, v: unknown) => v !== null && v !== undefined);

export class ImportRerankerByReferenceRequest {
  @ApiProperty({ description: 'Where the booster (model.txt) already is; must pass the source policy' })
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  artifact_uri!: string;
  @ApiProperty() @IsString() @MaxLength(1_000_000) spec_yaml!: string;
  @ApiProperty({
    description: 'run.json: feature_schema_sha (required), metrics, run_id, feature_importance',
  })
  @IsObject()
  run!: Record<string, unknown>;
  @ApiPropertyOptional({ nullable: true }) @IsOptional() @nullableText() @IsString() @MaxLength(200) name?:
    string | null;
  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @nullableText()
  @IsString()
  @MaxLength(200)
  dataset_id?: string | null;
  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @nullableText()
  @IsString()
  @MaxLength(200)
  external_source?: string | null;
  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @nullableText()
  @IsString()
  @MaxLength(200)
  prediction_set_id?: string | null;
  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @nullableText()
  @IsString()
  @MaxLength(200)
  evaluation_set_id?: string | null;
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() force?: boolean;
}
