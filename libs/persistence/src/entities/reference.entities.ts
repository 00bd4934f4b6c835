import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'ontology_snapshot' })
export class OntologySnapshotEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  /** The OBO file's `data-version` header; one snapshot per release. */
  @Column('text', { name: 'obo_version', unique: true }) oboVersion!: string;
  @Column('text', { name: 'obo_url' }) oboUrl!: string;
  @Column('timestamptz', { name: 'loaded_at' }) loadedAt!: Date;
  @Column('text', { name: 'ia_url', nullable: true }) iaUrl!: string | null;
  @Column('text', { name: 'format_version', nullable: true }) formatVersion!: string | null;
  @Column('int', { name: 'term_count' }) termCount!: number;
  @Column('int', { name: 'relationship_count' }) relationshipCount!: number;
}

@Entity({ name: 'go_term' })
export class GoTermEntity {
  @PrimaryGeneratedColumn('increment') id!: number;
  @Column('uuid', { name: 'ontology_snapshot_id' }) ontologySnapshotId!: string;
  @Column('text', { name: 'go_id' }) goId!: string;
  @Column('text', { nullable: true }) name!: string | null;
  @Column('text', { nullable: true }) definition!: string | null;
  @Column('text', { nullable: true }) aspect!: 'F' | 'P' | 'C' | null;
  @Column('boolean', { name: 'is_obsolete' }) isObsolete!: boolean;
}

@Entity({ name: 'go_term_alt_id' })
export class GoTermAltIdEntity {
  @PrimaryColumn('uuid', { name: 'ontology_snapshot_id' }) ontologySnapshotId!: string;
  @PrimaryColumn('text', { name: 'alt_id' }) altId!: string;
  @Column('int', { name: 'go_term_id' }) goTermId!: number;
}

@Entity({ name: 'go_term_relationship' })
export class GoTermRelationshipEntity {
  @PrimaryGeneratedColumn('increment') id!: number;
  @Column('uuid', { name: 'ontology_snapshot_id' }) ontologySnapshotId!: string;
  @Column('int', { name: 'child_go_term_id' }) childGoTermId!: number;
  @Column('int', { name: 'parent_go_term_id' }) parentGoTermId!: number;
  @Column('text', { name: 'relation_type' }) relationType!: string;
}

@Entity({ name: 'sequence' })
export class SequenceEntity {
  @PrimaryGeneratedColumn('increment') id!: number;
  @Column('text') sequence!: string;
  /** MD5 of the amino-acid string; one row per distinct string. */
  @Column('text', { name: 'sequence_hash', unique: true }) sequenceHash!: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
}

@Entity({ name: 'protein' })
export class ProteinEntity {
  @PrimaryColumn('text') accession!: string;
  @Column('text', { name: 'canonical_accession' }) canonicalAccession!: string;
  @Column('boolean', { name: 'is_canonical' }) isCanonical!: boolean;
  @Column('int', { name: 'isoform_index', nullable: true }) isoformIndex!: number | null;
  @Column('int', { name: 'sequence_id', nullable: true }) sequenceId!: number | null;
  @Column('text', { name: 'entry_name', nullable: true }) entryName!: string | null;
  @Column('text', { name: 'gene_name', nullable: true }) geneName!: string | null;
  @Column('text', { nullable: true }) organism!: string | null;
  @Column('text', { name: 'taxonomy_id', nullable: true }) taxonomyId!: string | null;
  @Column('int', { nullable: true }) length!: number | null;
  @Column('boolean', { nullable: true }) reviewed!: boolean | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
}

@Entity({ name: 'annotation_set' })
export class AnnotationSetEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('text') source!: 'goa' | 'quickgo';
  @Column('text', { name: 'source_version' }) sourceVersion!: string;
  @Column('uuid', { name: 'ontology_snapshot_id' }) ontologySnapshotId!: string;
  @Column('text', { name: 'source_url', nullable: true }) sourceUrl!: string | null;
  @Column('uuid', { name: 'job_id', nullable: true }) jobId!: string | null;
  @Column('int', { name: 'annotation_count' }) annotationCount!: number;
  @Column('jsonb') stats!: Record<string, unknown>;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
}

@Entity({ name: 'protein_go_annotation' })
export class ProteinGoAnnotationEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' }) id!: string;
  @Column('uuid', { name: 'annotation_set_id' }) annotationSetId!: string;
  @Column('text', { name: 'protein_accession' }) proteinAccession!: string;
  @Column('int', { name: 'go_term_id' }) goTermId!: number;
  @Column('text', { name: 'go_id' }) goId!: string;
  @Column('text', { nullable: true }) aspect!: string | null;
  @Column('text', { nullable: true }) qualifier!: string | null;
  @Column('boolean', { name: 'is_not' }) isNot!: boolean;
  @Column('text', { name: 'evidence_code' }) evidenceCode!: string;
  @Column('text', { nullable: true }) db!: string | null;
  @Column('text', { name: 'db_object_symbol', nullable: true }) dbObjectSymbol!: string | null;
  @Column('text', { name: 'db_reference', nullable: true }) dbReference!: string | null;
  @Column('text', { name: 'with_from', nullable: true }) withFrom!: string | null;
  @Column('text', { name: 'taxon_id', nullable: true }) taxonId!: string | null;
  @Column('date', { name: 'annotation_date', nullable: true }) annotationDate!: string | null;
  @Column('text', { name: 'assigned_by', nullable: true }) assignedBy!: string | null;
  @Column('text', { name: 'annotation_extension', nullable: true }) annotationExtension!: string | null;
  @Column('text', { name: 'gene_product_form_id', nullable: true }) geneProductFormId!: string | null;
}

@Entity({ name: 'query_set' })
export class QuerySetEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('text') name!: string;
  @Column('text', { nullable: true }) description!: string | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
}

@Entity({ name: 'query_set_entry' })
export class QuerySetEntryEntity {
  @PrimaryGeneratedColumn('increment') id!: number;
  @Column('uuid', { name: 'query_set_id' }) querySetId!: string;
  /** The FASTA header's identifier, as uploaded. */
  @Column('text') accession!: string;
  @Column('int', { name: 'sequence_id' }) sequenceId!: number;
  @Column('text', { nullable: true }) species!: string | null;
  @Column('int', { name: 'taxonomy_id', nullable: true }) taxonomyId!: number | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
}

@Entity({ name: 'interpro_annotation' })
export class InterProAnnotationEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('text', { name: 'protein_accession' }) proteinAccession!: string;
  @Column('text') accession!: string;
  @Column('text', { name: 'source_db' }) sourceDb!: string;
  @Column('int') start!: number;
  @Column('int') end!: number;
  @Column('text', { nullable: true }) evidence!: string | null;
  @Column('text', { name: 'ipr_release' }) iprRelease!: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
}

@Entity({ name: 'interpro_go_mapping' })
export class InterProGoMappingEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('text', { name: 'ipr_accession' }) iprAccession!: string;
  @Column('text', { name: 'go_id' }) goId!: string;
  @Column('text', { nullable: true }) evidence!: string | null;
  @Column('text', { name: 'source_version' }) sourceVersion!: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
}

@Entity({ name: 'embedding_config' })
export class EmbeddingConfigEntity {
  /** UUIDv5 of the canonical recipe: the same recipe has the same id everywhere. */
  @PrimaryColumn('uuid') id!: string;
  @Column('text', { name: 'model_name' }) modelName!: string;
  @Column('text', { name: 'model_backend' }) modelBackend!: string;
  @Column('int', { name: 'layer_indices', array: true }) layerIndices!: number[];
  @Column('text', { name: 'layer_agg' }) layerAgg!: string;
  @Column('text') pooling!: string;
  @Column('boolean', { name: 'normalize_residues' }) normalizeResidues!: boolean;
  @Column('boolean') normalize!: boolean;
  @Column('int', { name: 'max_length' }) maxLength!: number;
  @Column('boolean', { name: 'use_chunking' }) useChunking!: boolean;
  @Column('int', { name: 'chunk_size' }) chunkSize!: number;
  @Column('int', { name: 'chunk_overlap' }) chunkOverlap!: number;
  @Column('double precision', { name: 'embedding_scale' }) embeddingScale!: number;
  @Column('text', { nullable: true }) description!: string | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
}

@Entity({ name: 'embedding' })
export class EmbeddingEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' }) id!: string;
  @Column('uuid', { name: 'embedding_config_id' }) embeddingConfigId!: string;
  @Column('int', { name: 'sequence_id' }) sequenceId!: number;
  @Column('int', { name: 'chunk_index' }) chunkIndex!: number;
  @Column('int') dimension!: number;
  @Column('text') dtype!: 'float32' | 'float16';
  /** Little-endian float32 (or float16) bytes. */
  @Column('bytea') vector!: Buffer;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
}
