import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsObject, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { trimString } from '../transforms';

export class ScoringConfigCreate {
  @ApiProperty() @Transform(trimString) @IsString() @MinLength(1) @MaxLength(200) name!: string;
  @ApiProperty({
    description:
      'Weights of embedding_similarity, identity_nw, identity_sw, evidence_weight, taxonomic_proximity, neighbor_vote_fraction, prediction_score; omitted keys weigh 0',
    type: 'object',
    additionalProperties: { type: 'number' },
  })
  @IsObject()
  weights!: Record<string, unknown>;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(2000) description?: string;
}
