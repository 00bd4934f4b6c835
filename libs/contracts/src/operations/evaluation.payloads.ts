import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { IsValidUuid } from '../validators';
import { OptionalInteger, OptionalNumber } from '../ranges';

export const EVALUATION_BANDS = ['v226', 'v227'] as const;
/** `lafa` claims numbers comparable with the LAFA benchmark; the worker checks the run's recipe. */
export const EVALUATION_FRAMES = ['lafa'] as const;

export class GenerateEvaluationSetPayload {
  @ApiProperty({ format: 'uuid', description: 't0: the older (reference) annotation set' })
  @IsValidUuid()
  old_annotation_set_id!: string;
  @ApiProperty({ format: 'uuid', description: 't1: the newer (ground-truth) annotation set' })
  @IsValidUuid()
  new_annotation_set_id!: string;
  @ApiPropertyOptional({
    default: false,
    description: 'Also count HTP, HDA, HMP, HGI, HEP, IC and TAS (the extended CAFA set)',
  })
  @IsOptional()
  @IsBoolean()
  extended_evidence?: boolean;
  @ApiPropertyOptional({
    default: false,
    description:
      'Leave out NK proteins whose gene (GAF DB Object Symbol) had experimental terms at t0 under another accession ' +
      '(gene-level carry-over). Off by default: NK is every protein with no experimental term at t0. ' +
      'Their number is in stats.nk_gene_carry_over either way, and stats.gene_carry_over_excluded says which; ' +
      'a `frame: lafa` run refuses a set made with it (lafa_frame_mismatch)',
  })
  @IsOptional()
  @IsBoolean()
  exclude_gene_carry_over?: boolean;
}

class AspectRerankers {
  @IsOptional() @IsValidUuid() bpo?: string;
  @IsOptional() @IsValidUuid() mfo?: string;
  @IsOptional() @IsValidUuid() cco?: string;
}

export class RerankerSelection {
  @IsOptional() @ValidateNested() @Type(() => AspectRerankers) nk?: AspectRerankers;
  @IsOptional() @ValidateNested() @Type(() => AspectRerankers) lk?: AspectRerankers;
  @IsOptional() @ValidateNested() @Type(() => AspectRerankers) pk?: AspectRerankers;
}

export class RunCafaEvaluationPayload {
  @ApiProperty({ format: 'uuid' }) @IsValidUuid() evaluation_set_id!: string;
  @ApiProperty({ format: 'uuid' }) @IsValidUuid() prediction_set_id!: string;
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsValidUuid()
  scoring_config_id?: string;
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsValidUuid()
  reranker_model_id?: string;
  @ApiPropertyOptional({ description: '{nk|lk|pk: {bpo|mfo|cco: reranker id}}' })
  @IsOptional()
  @ValidateNested()
  @Type(() => RerankerSelection)
  rerankers?: RerankerSelection;
  @ApiPropertyOptional({ enum: EVALUATION_BANDS }) @IsOptional() @IsIn(EVALUATION_BANDS) band?: string;
  @ApiPropertyOptional({ description: 'IA file (path on the worker, file:// or http(s))' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  ia_file?: string;
  @ApiPropertyOptional({ description: 'Terms-of-interest file' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  toi_file?: string;
  @OptionalNumber({ min: 0.0001, max: 0.5, default: 0.01 }) th_step?: number;
  @OptionalInteger({ min: 0, nullable: true, default: null }) max_terms?: number | null;
  @ApiPropertyOptional({
    enum: EVALUATION_FRAMES,
    description:
      '`lafa`: a LAFA-comparable run; needs `band`, its IA file, its release TOI file, the default th_step and no max_terms (else the job fails with lafa_frame_mismatch). Empty (the default) or absent: no frame.',
  })
  @IsOptional()
  // The specification's default is the empty string: it means no frame, like leaving the field out.
  @Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value))
  @IsIn(EVALUATION_FRAMES)
  frame?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) temporal_window?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) leakage_role?: string;
}

/** Body of POST /annotations/evaluation-sets/{id}/run: the run payload without the set id. */
export class RunEvaluationRequest extends RunCafaEvaluationPayload {
  @IsOptional() declare evaluation_set_id: string;
}

export const DELTA_PROTEIN_CATEGORIES = ['nk', 'lk', 'pk', 'all'] as const;

/** GET /annotations/evaluation-sets/{id}/delta-proteins.fasta (any letter case). */
export class DeltaProteinsQuery {
  @ApiPropertyOptional({ enum: DELTA_PROTEIN_CATEGORIES, default: 'all' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value))
  @IsIn(DELTA_PROTEIN_CATEGORIES)
  category?: (typeof DELTA_PROTEIN_CATEGORIES)[number];
}
