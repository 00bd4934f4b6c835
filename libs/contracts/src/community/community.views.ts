import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IdProperty } from '../example-ids';

/** A thumbs-up, with its optional comment. */
export class SupportEntryView {
  @IdProperty('supportEntry') id!: string;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'Saved me a week of BLAST runs.' })
  comment!: string | null;
  @ApiProperty({ format: 'date-time', example: '2025-03-14T09:26:53.589Z' }) created_at!: string;
}

export class SupportSummaryView {
  @ApiProperty({ example: 42, description: 'Thumbs-up received, with or without comment' }) total!: number;
  @ApiProperty({ type: [SupportEntryView], description: 'The 20 newest comments, newest first' })
  recent_comments!: SupportEntryView[];
}

/** How much the platform holds. */
export class ShowcaseCountsView {
  @ApiProperty({ example: 571609 }) proteins!: number;
  @ApiProperty({ example: 2 }) ontology_snapshots!: number;
  @ApiProperty({ example: 3 }) annotation_sets!: number;
  @ApiProperty({ example: 1204133 }) annotations!: number;
  @ApiProperty({ example: 2 }) embedding_configs!: number;
  @ApiProperty({
    example: 571609,
    description: "Embeddings of public sequences (proteins' and those of public query sets)",
  })
  embeddings!: number;
  @ApiProperty({
    example: 12,
    description: 'Public prediction sets (private and unlisted ones are not counted)',
  })
  prediction_sets!: number;
  @ApiProperty({ example: 3480120, description: 'Predictions of the public prediction sets' })
  predictions!: number;
  @ApiProperty({ example: 2 }) evaluation_sets!: number;
  @ApiProperty({ example: 9, description: 'Published evaluation results' }) evaluation_results!: number;
  @ApiProperty({ example: 1 }) rerankers!: number;
}

/** The best stored result of one (category, aspect). */
export class ShowcaseBestResultView {
  @ApiProperty({ example: 'NK' }) category!: string;
  @ApiProperty({ example: 'BPO' }) aspect!: string;
  @IdProperty('evaluationResult') result_id!: string;
  @IdProperty('evaluationSet') evaluation_set_id!: string;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }) prediction_set_id!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'baseline' }) stage!: string | null;
  @ApiProperty({
    enum: ['f_micro_w', 'fmax'],
    example: 'f_micro_w',
    description: 'f_micro_w, or fmax for results evaluated without IA',
  })
  metric!: 'f_micro_w' | 'fmax';
  @ApiProperty({ example: 0.412 }) value!: number;
  @ApiProperty({ format: 'date-time', example: '2025-03-14T10:02:11.204Z' }) created_at!: string;
}

export class ShowcaseView {
  @ApiProperty({ type: ShowcaseCountsView }) counts!: ShowcaseCountsView;
  @ApiProperty({ type: [ShowcaseBestResultView] }) best_results!: ShowcaseBestResultView[];
}
