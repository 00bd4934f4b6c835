import { Transform } from 'class-transformer';
import { parseBooleanParam } from '../transforms';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { IsValidUuid } from '../validators';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IntegerParam, LimitParam, OffsetParam, OptionalInteger, OptionalNumber } from '../ranges';

export class LoadOntologySnapshotPayload {
  @ApiProperty({ description: 'http(s), file:// or a path on the worker; gzip recognised' })
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  obo_url!: string;
}

/** The share of records naming GO ids the snapshot lacks that an annotation load tolerates. */
function MaxUnresolvedRatio(): PropertyDecorator {
  return OptionalNumber({
    min: 0,
    max: 1,
    default: 0.05,
    description:
      'Fail (`ontology_mismatch`) when more than this share of records name GO ids the snapshot does not have live (unknown or obsolete): the file was made against another release',
  });
}

export class LoadGoaAnnotationsPayload {
  @ApiProperty({ format: 'uuid' }) @IsValidUuid() ontology_snapshot_id!: string;
  @ApiProperty() @IsString() @MinLength(1) @MaxLength(2000) gaf_url!: string;
  @ApiProperty() @IsString() @MinLength(1) @MaxLength(200) source_version!: string;
  @OptionalNumber({
    min: 0,
    max: 1,
    default: 0.05,
    description: 'Fail when more than this share of lines is malformed',
  })
  max_error_ratio?: number;
  @MaxUnresolvedRatio() max_unresolved_ratio?: number;
}

export class LoadQuickGoAnnotationsPayload {
  @ApiProperty({ format: 'uuid' }) @IsValidUuid() ontology_snapshot_id!: string;
  @ApiProperty() @IsString() @MinLength(1) @MaxLength(200) source_version!: string;
  @ApiPropertyOptional({ type: [String], description: 'Gene products, e.g. UniProtKB:P12345' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(500)
  @IsString({ each: true })
  gene_product_ids?: string[];
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(50) taxon_id?: string;
  @ApiPropertyOptional({ description: 'Comma-separated evidence codes, e.g. EXP,IDA' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  go_evidence?: string;
  @OptionalInteger({ min: 1, max: 200, default: 100 }) page_size?: number;
  @OptionalInteger({ min: 1, max: 100_000, description: 'Stop after this many pages' }) max_pages?: number;
  @MaxUnresolvedRatio() max_unresolved_ratio?: number;
}

export class InsertProteinsPayload {
  @ApiPropertyOptional({ description: 'UniProt query, e.g. organism_id:9606 AND reviewed:true' })
  @ValidateIf((p: InsertProteinsPayload) => p.source_url === undefined)
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  search_criteria?: string;
  @ApiPropertyOptional({
    description: 'Instead of a search: a UniProt FASTA or TSV export (http(s), file://, path; gzip)',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  source_url?: string;
  @OptionalInteger({ min: 1, max: 500, default: 500 }) page_size?: number;
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() include_isoforms?: boolean;
}

export class FetchUniprotMetadataPayload {
  @ApiProperty() @IsString() @MinLength(1) @MaxLength(2000) search_criteria!: string;
  @OptionalInteger({ min: 1, max: 500, default: 500 }) page_size?: number;
  @OptionalInteger({
    min: 1,
    max: 100_000,
    description:
      "Stop after this many pages. Neither it nor max_pages x page_size rows may pass the submitter's caps (researchers: SVC_UNIPROT_PAGE_CAP_RESEARCHER, default 5, and SVC_UNIPROT_ROW_CAP_RESEARCHER, default 1000; operators: SVC_UNIPROT_PAGE_CAP_OPERATOR and SVC_UNIPROT_ROW_CAP_OPERATOR); without it the job stops at those caps and says so in its result (stopped_at_cap)",
  })
  max_pages?: number;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() commit_every_page?: boolean;
  @ApiPropertyOptional({
    default: false,
    description: 'Also refresh the names, organism and review status of loaded proteins (operators only)',
  })
  @IsOptional()
  @IsBoolean()
  update_protein_core?: boolean;
}

export class BuildGoCooccurrencePayload {
  @ApiProperty({ format: 'uuid' }) @IsValidUuid() annotation_set_id!: string;
}

export class LoadInterproGoMappingPayload {
  @ApiProperty({ description: 'interpro2go file (http(s), file://, path; gzip)' })
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  url!: string;
}

/** Body of PATCH /annotations/snapshots/{id}/ia-url. */
export class SetIaUrlRequest {
  @ApiProperty({ nullable: true, type: String, description: 'An empty string clears it' })
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(2000)
  ia_url!: string | null;
}

export class ListProteinsQuery {
  @ApiPropertyOptional({ description: 'Accession, entry name, protein name, gene name or organism' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;
  @ApiPropertyOptional({ type: Boolean })
  @IsOptional()
  @Transform(parseBooleanParam)
  @IsBoolean()
  reviewed?: boolean;
  @ApiPropertyOptional({ type: Boolean, default: true })
  @IsOptional()
  @Transform(parseBooleanParam)
  @IsBoolean()
  canonical_only?: boolean;
  @LimitParam({ default: 50, max: 1000 })
  limit?: number;
  @OffsetParam()
  offset?: number;
}

export class ProteinAnnotationsQuery {
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsValidUuid() annotation_set_id?: string;
}

export class ListAnnotationSetsQuery {
  @ApiPropertyOptional({ enum: ['goa', 'quickgo'] }) @IsOptional() @IsIn(['goa', 'quickgo']) source?:
    'goa' | 'quickgo';
}

export class SubgraphQuery {
  @ApiProperty({ description: 'GO ids separated by commas or white space' })
  @IsString()
  @MinLength(1)
  @MaxLength(20_000)
  go_ids!: string;
  @IntegerParam({ min: 0, max: 50, default: 3 })
  depth?: number;
}

export class InstallReferencePayload {
  @ApiProperty({ example: 'human', description: 'A reference of the catalog (GET /references)' })
  @IsString()
  @Matches(/^[a-z][a-z0-9-]{0,39}$/)
  name!: string;
  @ApiPropertyOptional({
    example: 'https://mirror.example.org/',
    description:
      'Read the files from this mirror (a base URL, or a folder of the server) instead of their canonical sources: each under the host and path of its canonical URL, with an optional SHA256SUMS file at the top. Subject to the source policy.',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  mirror?: string;
}
