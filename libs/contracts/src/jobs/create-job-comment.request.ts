import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { trimString } from '../transforms';

/**
 * Body of POST /jobs/{id}/comments. The author is not part of it: the server records the signed-in
 * account's username, and a body that names an `author` is refused (422, unknown field).
 */
export class CreateJobCommentRequest {
  @ApiProperty({ description: 'Markdown text, at least one character after stripping' })
  @Transform(trimString)
  @IsString()
  @MinLength(1)
  @MaxLength(100_000)
  body!: string;
}
