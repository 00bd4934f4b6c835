import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IdProperty } from '../example-ids';

/** A timestamp as the views print it. */
export const DATE_TIME_EXAMPLE = '2025-11-20T14:03:27.512034Z';

/**
 * How a stored source reads (docs/security.md, "Sources: what the server reads"), for the
 * descriptions of the fields that hold one.
 */
export const STORED_SOURCE_TEXT =
  'Operators and administrators see the source as stored. Other callers see a file on the server, ' +
  'an artifact-store or s3:// URI, or a URL of a private host by its file name only (`go-basic.obo`), ' +
  'and a URL of a public host without its credentials, fragment and secret query parameters.';
const ASPECT_TEXT = 'F (molecular function), P (biological process) or C (cellular component)';

/** A protein row: one UniProt entry or isoform. */
export class ProteinView {
  @ApiProperty({ example: 'P69905' }) accession!: string;
  @ApiProperty({ example: 'P69905', description: 'The canonical entry (itself for a canonical protein)' })
  canonical_accession!: string;
  @ApiProperty({ example: true }) is_canonical!: boolean;
  @ApiPropertyOptional({
    nullable: true,
    type: Number,
    example: null,
    description: 'Isoform number (P69905-2 → 2)',
  })
  isoform_index!: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number, example: 1042 }) sequence_id!: number | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'HBA_HUMAN' }) entry_name!: string | null;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    example: 'Hemoglobin subunit alpha',
    description:
      'The text of a UniProt FASTA header before OS=, or the "Protein names" of a UniProt TSV (alternative names in parentheses)',
  })
  protein_name!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'HBA1' }) gene_name!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'Homo sapiens' }) organism!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: '9606', description: 'NCBI taxonomy id' })
  taxonomy_id!: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number, example: 142, description: 'Residues' })
  length!: number | null;
  @ApiPropertyOptional({
    nullable: true,
    type: Boolean,
    example: true,
    description: 'Swiss-Prot (reviewed) entry',
  })
  reviewed!: boolean | null;
  @ApiProperty({ format: 'date-time', example: DATE_TIME_EXAMPLE }) created_at!: string;
  @ApiProperty({ format: 'date-time', example: DATE_TIME_EXAMPLE }) updated_at!: string;
}

export class ProteinPageView {
  @ApiProperty({ type: [ProteinView] }) items!: ProteinView[];
  @ApiProperty({ example: 1287, description: 'Proteins matching the filters' }) total!: number;
  @ApiProperty({ example: 50 }) limit!: number;
  @ApiProperty({ example: 0 }) offset!: number;
}

/** The UniProt free-text annotations stored per canonical entry (a field not given by UniProt is null). */
export const PROTEIN_METADATA_FIELDS = [
  'absorption',
  'active_site',
  'activity_regulation',
  'binding_site',
  'catalytic_activity',
  'cofactor',
  'dna_binding',
  'ec_number',
  'features',
  'function_cc',
  'keywords',
  'kinetics',
  'pathway',
  'ph_dependence',
  'redox_potential',
  'rhea_id',
  'site',
  'temperature_dependence',
] as const;
export type ProteinMetadata = Record<(typeof PROTEIN_METADATA_FIELDS)[number], string | null>;

const METADATA_EXAMPLES: Partial<ProteinMetadata> = {
  function_cc: 'Involved in oxygen transport from the lung to the various peripheral tissues.',
  keywords: '3D-structure;Heme;Iron;Oxygen transport',
};

export class ProteinDetailView extends ProteinView {
  // Inline rather than a $ref: OpenAPI 3.0 cannot make a referenced schema nullable. `ApiProperty`
  // (not Optional, which would drop the `required` list) with `selfRequired: false`, like other nullables.
  @ApiProperty({
    selfRequired: false,
    nullable: true,
    type: 'object',
    properties: Object.fromEntries(
      PROTEIN_METADATA_FIELDS.map((field) => [
        field,
        { type: 'string', nullable: true, example: METADATA_EXAMPLES[field] },
      ]),
    ),
    required: [...PROTEIN_METADATA_FIELDS],
    description: 'UniProt metadata of the canonical entry; null until fetched',
  })
  metadata!: ProteinMetadata | null;
  @ApiProperty({ example: 2, description: 'Embeddings stored for its sequence' }) embedding_count!: number;
  @ApiProperty({ example: 37, description: 'GO annotations over every set' }) go_annotation_count!: number;
  @ApiProperty({ type: [String], example: ['P69905-2'], description: 'Isoforms of a canonical entry' })
  isoform_accessions!: string[];
}

export class ProteinStatsView {
  @ApiProperty({ example: 20417 }) proteins!: number;
  @ApiProperty({ example: 20417 }) canonical!: number;
  @ApiProperty({ example: 0 }) isoforms!: number;
  @ApiProperty({ example: 20417 }) reviewed!: number;
  @ApiProperty({ example: 20380 }) with_metadata!: number;
  @ApiProperty({ example: 19120 }) with_go_annotations!: number;
  @ApiProperty({
    example: 20398,
    description: "Distinct sequences of the proteins (query sets' uploads are not counted)",
  })
  sequences!: number;
  @ApiProperty({ example: 20398 }) with_embeddings!: number;
  @ApiProperty({
    format: 'date-time',
    example: '2025-11-20T14:03:27.512Z',
    description: 'When the counts were computed',
  })
  cached_at!: string;
  @ApiProperty({ example: false, description: 'True when a recompute failed and older counts are served' })
  stale!: boolean;
}

/** One GO annotation of a protein, with its term and the set it comes from. */
export class ProteinAnnotationView {
  @ApiProperty({ example: '81234' }) id!: string;
  @IdProperty('annotationSet') annotation_set_id!: string;
  @ApiProperty({ enum: ['goa', 'quickgo'] }) source!: 'goa' | 'quickgo';
  @ApiProperty({ example: '220' }) source_version!: string;
  @ApiProperty({ example: 'P69905' }) protein_accession!: string;
  @ApiProperty({ example: 'GO:0005344' }) go_id!: string;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'oxygen carrier activity' })
  go_name!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'F', description: ASPECT_TEXT })
  go_aspect!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'enables' }) qualifier!: string | null;
  @ApiProperty({ example: false, description: 'A NOT annotation' }) is_not!: boolean;
  @ApiProperty({ example: 'IDA' }) evidence_code!: string;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'PMID:1234567' }) db_reference!:
    string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) with_from!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'UniProt' }) assigned_by!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: '2024-03-12' }) annotation_date!:
    string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'taxon:9606' }) taxon_id!: string | null;
}

export class OntologySnapshotView {
  @IdProperty('ontologySnapshot') id!: string;
  @ApiProperty({ example: 'releases/2025-10-10', description: 'The OBO `data-version`' })
  obo_version!: string;
  @ApiProperty({
    example: 'https://purl.obolibrary.org/obo/go/go-basic.obo',
    description: `The OBO file it was loaded from. ${STORED_SOURCE_TEXT}`,
  })
  obo_url!: string;
  @ApiProperty({ format: 'date-time', example: DATE_TIME_EXAMPLE }) loaded_at!: string;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    example: 'https://example.org/ia/go-2025-10-10.tsv',
    description: `Information accretion file used by weighted metrics. ${STORED_SOURCE_TEXT}`,
  })
  ia_url!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: '1.2' }) format_version!: string | null;
  @ApiProperty({ example: 48021 }) term_count!: number;
  @ApiProperty({ example: 91543 }) relationship_count!: number;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    example: '9f2c1d0e5b7a4c3d8e6f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d',
    description:
      'SHA-256 of the stored content (terms, alt ids, edges; not file order or comments): a release is its ' +
      'data-version and this hash, and another file under the same data-version is refused. Null on a ' +
      'snapshot loaded before hashes existed until its version is loaded again.',
  })
  content_sha256!: string | null;
}

export class SubgraphNodeView {
  @ApiProperty({ example: 1207, description: 'Term row id, referenced by edges' }) id!: number;
  @ApiProperty({ example: 'GO:0005515' }) go_id!: string;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'protein binding' }) name!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'F', description: ASPECT_TEXT })
  aspect!: string | null;
  @ApiProperty({ example: true, description: 'One of the requested terms' }) is_query!: boolean;
}

export class SubgraphEdgeView {
  @ApiProperty({ example: 1207, description: 'Child term id' }) source!: number;
  @ApiProperty({ example: 311, description: 'Parent term id' }) target!: number;
  @ApiProperty({
    enum: ['is_a', 'part_of', 'regulates', 'negatively_regulates', 'positively_regulates'],
    example: 'is_a',
  })
  relation_type!: string;
}

export class SubgraphView {
  @ApiProperty({ type: [SubgraphNodeView] }) nodes!: SubgraphNodeView[];
  @ApiProperty({ type: [SubgraphEdgeView] }) edges!: SubgraphEdgeView[];
}

export class AnnotationSetView {
  @IdProperty('annotationSet') id!: string;
  @ApiProperty({ enum: ['goa', 'quickgo'], example: 'goa' }) source!: 'goa' | 'quickgo';
  @ApiProperty({ example: '220' }) source_version!: string;
  @IdProperty('ontologySnapshot') ontology_snapshot_id!: string;
  @ApiProperty({ example: 'releases/2025-10-10' }) obo_version!: string;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    example: 'https://ftp.ebi.ac.uk/pub/databases/GO/goa/HUMAN/goa_human.gaf.gz',
    description: `The GAF file or QuickGO query it was loaded from. ${STORED_SOURCE_TEXT}`,
  })
  source_url!: string | null;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String, description: 'The load job' })
  job_id!: string | null;
  @ApiProperty({ example: 612345 }) annotation_count!: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Counters of the load (rows read, skipped...)',
  })
  stats!: Record<string, unknown>;
  @ApiProperty({ format: 'date-time', example: DATE_TIME_EXAMPLE }) created_at!: string;
}

export class AnnotationSetDeletionView {
  @IdProperty('annotationSet') id!: string;
  @ApiProperty({ example: true }) deleted!: boolean;
  @ApiProperty({ example: 612345 }) annotations_deleted!: number;
}

export class OrphanSequenceCountView {
  @ApiProperty({ example: 37, description: 'Sequences referenced by no protein and no query-set entry' })
  count!: number;
}

export class OrphanSequenceDeletionView {
  @ApiProperty({ example: 37 }) deleted!: number;
}

/** A stored source file; its `uri` is accepted wherever a load takes a source URL. */
export class UploadedSourceView {
  @ApiProperty({ example: 's3://svc-artifacts/sources/9a1f0c4e-2b7d-4e8a-b3c5-6d0e1f2a3b4c/go-basic.obo' })
  uri!: string;
  @ApiProperty({ example: 'sources/9a1f0c4e-2b7d-4e8a-b3c5-6d0e1f2a3b4c/go-basic.obo' }) key!: string;
  @ApiProperty({ example: 31457280 }) size_bytes!: number;
  @ApiProperty({ example: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' })
  sha256!: string;
}

/** One file of an installed reference. */
export class InstalledReferenceFileView {
  @ApiProperty({ enum: ['ontology', 'annotations', 'sequences'], example: 'annotations' }) role!: string;
  @ApiProperty({
    example: 'https://ftp.ebi.ac.uk/pub/databases/GO/goa/HUMAN/goa_human.gaf.gz',
    description: 'Its canonical source (operators also see the mirror it was read from, in `source`)',
  })
  url!: string;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description: 'Where it was read from (operators only)',
  })
  source!: string | null;
  @ApiProperty({ example: '3fa2c6d1e0b94d5c8e7f6a5b4c3d2e1f00112233445566778899aabbccddeeff' })
  sha256!: string;
  @ApiProperty({ example: 12873554 }) bytes!: number;
  @ApiProperty({
    enum: ['pinned', 'mirror', 'unverified'],
    example: 'mirror',
    description:
      "How its SHA-256 was checked: the catalog's pin, the mirror's SHA256SUMS, or not (none published)",
  })
  checked!: string;
}

/** A reference of the catalog, and its installs (newest first). */
export class InstalledReferenceView {
  @IdProperty('referenceBundle') id!: string;
  @ApiProperty({ example: 'human' }) name!: string;
  @ApiProperty({ example: '9f2c1d0e5b7a4c3d8e6f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d' })
  content_sha256!: string;
  @IdProperty('ontologySnapshot') ontology_snapshot_id!: string;
  @ApiProperty({ example: 'releases/2025-10-10' }) ontology_version!: string;
  @IdProperty('annotationSet') annotation_set_id!: string;
  @ApiProperty({ example: 'goa human goa_human.gaf.gz@3fa2c6d1e0b9' }) annotation_set_label!: string;
  @ApiProperty({ type: [InstalledReferenceFileView] }) files!: InstalledReferenceFileView[];
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { annotations: 612004, proteins: 20420, ontology_terms: 48021 },
  })
  stats!: Record<string, unknown>;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description: 'The mirror it was read from (operators only)',
  })
  mirror!: string | null;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }) job_id!: string | null;
  @ApiProperty({ format: 'date-time', example: DATE_TIME_EXAMPLE }) installed_at!: string;
}

export class ReferenceCatalogFileView {
  @ApiProperty({ example: 'ontology' }) role!: string;
  @ApiProperty({ example: 'https://purl.obolibrary.org/obo/go/go-basic.obo' }) url!: string;
  @ApiProperty({
    example: 'purl.obolibrary.org/obo/go/go-basic.obo',
    description: 'Its path inside a mirror',
  })
  mirror_path!: string;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'A pinned SHA-256, where known' })
  sha256!: string | null;
}

export class ReferenceEntryView {
  @ApiProperty({ example: 'human' }) name!: string;
  @ApiProperty({ example: 'Human Swiss-Prot proteins with their GOA annotations, on the current GO release' })
  description!: string;
  @ApiProperty({ example: '9606' }) taxon!: string;
  @ApiProperty({ enum: ['experimental', 'all'], example: 'experimental' }) donor_evidence!: string;
  @ApiProperty({ type: [ReferenceCatalogFileView] }) files!: ReferenceCatalogFileView[];
  @ApiProperty({
    type: [InstalledReferenceView],
    description: 'Its installs, newest first (empty: not installed)',
  })
  installed!: InstalledReferenceView[];
  @ApiProperty({
    example: true,
    description: 'One-click annotation uses it (the newest install of any name)',
  })
  is_default!: boolean;
}
