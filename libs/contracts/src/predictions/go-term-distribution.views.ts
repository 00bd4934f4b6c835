import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ASPECT_CODES, AspectCode } from './prediction.views';

export class GoTermCountView {
  @ApiProperty({ enum: ASPECT_CODES, example: 'F' }) aspect!: AspectCode;
  @ApiProperty({ example: 'GO:0005515' }) go_id!: string;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'protein binding' }) go_name!: string | null;
  @ApiProperty({ example: 12 }) prediction_count!: number;
  @ApiProperty({ example: 9 }) protein_count!: number;
}

/** The most predicted terms of each aspect. */
export class GoTermsByAspectView {
  @ApiProperty({ type: [GoTermCountView] }) F!: GoTermCountView[];
  @ApiProperty({ type: [GoTermCountView] }) P!: GoTermCountView[];
  @ApiProperty({ type: [GoTermCountView] }) C!: GoTermCountView[];
}

export class AspectTotalsView {
  @ApiProperty({ enum: ASPECT_CODES, example: 'P' }) aspect!: AspectCode;
  @ApiProperty({ example: 180 }) predictions!: number;
  @ApiProperty({ example: 64, description: 'Distinct terms' }) terms!: number;
  @ApiProperty({ example: 11 }) proteins!: number;
}

/** Totals per aspect; an aspect without predictions is absent. */
export class AspectTotalsByAspectView {
  @ApiPropertyOptional({ type: AspectTotalsView }) F?: AspectTotalsView;
  @ApiPropertyOptional({ type: AspectTotalsView }) P?: AspectTotalsView;
  @ApiPropertyOptional({ type: AspectTotalsView }) C?: AspectTotalsView;
}

export class GoTermDistributionView {
  @ApiProperty({ type: GoTermsByAspectView }) terms!: GoTermsByAspectView;
  @ApiProperty({ type: AspectTotalsByAspectView }) totals!: AspectTotalsByAspectView;
}
