import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IdProperty } from '../example-ids';

export class ScoringConfigView {
  @IdProperty('scoringConfig') id!: string;
  @ApiProperty({ example: 'default' }) name!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'number' },
    example: {
      embedding_similarity: 0.5,
      identity_nw: 0,
      identity_sw: 0.3,
      evidence_weight: 0.2,
      taxonomic_proximity: 0,
      neighbor_vote_fraction: 0,
      prediction_score: 0,
    },
    description: 'Weight of every scoring signal (normalized)',
  })
  weights!: Record<string, number>;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'Embedding similarity and identity' })
  description!: string | null;
  @ApiProperty({ example: true, description: 'One of the built-in presets' }) is_preset!: boolean;
  @ApiProperty({ format: 'date-time', example: '2025-01-15T10:42:00.000Z' }) created_at!: string;
}

export class ScoringPresetsView {
  @ApiProperty({ type: [String], example: ['default'], description: 'The presets this call registered' })
  created!: string[];
  @ApiProperty({ type: [ScoringConfigView], description: 'Every preset' }) presets!: ScoringConfigView[];
}

export class ScoringConfigDeletionView {
  @IdProperty('scoringConfig') id!: string;
  @ApiProperty({ example: true }) deleted!: boolean;
}
