import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { trimString } from '../transforms';

export class CreateJobCommentRequest {
  @ApiProperty({ description: 'Markdown text, at least one character after stripping' })
  @Transform(trimString)
  @IsString()
  @MinLength(1)
  @MaxLength(100_000)
  body!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  author?: string | null;
}
