import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ExpiresAtProperty, VisibilityName, VisibilityProperty } from '../ownership/ownership.properties';
import { IdProperty } from '../example-ids';
import { DATE_TIME_EXAMPLE } from './reference.views';

export class QuerySetCreatedView {
  @IdProperty('querySet') id!: string;
  @ApiProperty({ example: 'human kinases' }) name!: string;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'Batch from the November screen' })
  description!: string | null;
  @ApiProperty({ example: 12, description: 'FASTA records' }) entry_count!: number;
  @ApiProperty({ example: 11, description: 'Distinct amino-acid sequences' }) unique_sequences!: number;
  @ApiProperty({
    example: 2,
    description:
      'Records whose FASTA header lists GO terms already known of the protein (GO=GO:0003677,GO:0005634); ' +
      'they inform its prediction and come back as submitted, never as predicted',
  })
  entries_with_known_terms!: number;
}

export class QuerySetView {
  @IdProperty('querySet') id!: string;
  @ApiProperty({ example: 'human kinases' }) name!: string;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'Batch from the November screen' })
  description!: string | null;
  @ApiProperty({ format: 'date-time', example: DATE_TIME_EXAMPLE }) created_at!: string;
  @ApiPropertyOptional({
    format: 'uuid',
    nullable: true,
    type: String,
    description: 'The account that uploaded it',
  })
  owner_user_id!: string | null;
  @VisibilityProperty('owner') visibility!: VisibilityName;
  @ExpiresAtProperty('set', { optional: true })
  expires_at!: string | null;
  @ApiProperty({ example: 12 }) entry_count!: number;
}

export class QuerySetEntryView {
  @ApiProperty({ example: 5012 }) id!: number;
  @ApiProperty({ example: 'sp|P69905|HBA_HUMAN', description: 'The FASTA identifier' }) accession!: string;
  @ApiProperty({ example: 1042 }) sequence_id!: number;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'Homo sapiens' }) species!: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number, example: 9606 }) taxonomy_id!: number | null;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    example: 'HBA1',
    description:
      "The gene name from the FASTA header's GN= (null without one, or when it is longer than 200 " +
      'characters or holds a control character); column 3 (DB Object Symbol) of its GAF lines',
  })
  gene_name!: string | null;
  @ApiPropertyOptional({
    nullable: true,
    type: [String],
    example: ['GO:0003677', 'GO:0005634'],
    description: "The GO terms the FASTA header's GO= says are known of the protein (null without one)",
  })
  known_go_ids!: string[] | null;
  @ApiProperty({ example: 142, description: 'Residues' }) length!: number;
  @ApiProperty({ example: '0b5c4f1b0b1b1d0a4c6f0a9b5e0c1d2e', description: 'MD5 of the sequence' })
  sequence_hash!: string;
  @ApiProperty({ format: 'date-time', example: DATE_TIME_EXAMPLE }) created_at!: string;
}

export class QuerySetDetailView extends QuerySetView {
  @ApiProperty({ type: [QuerySetEntryView] }) entries!: QuerySetEntryView[];
}

export class QuerySetDeletionView {
  @IdProperty('querySet') id!: string;
  @ApiProperty({ example: true }) deleted!: boolean;
  @ApiProperty({ example: 12 }) entries_deleted!: number;
}
