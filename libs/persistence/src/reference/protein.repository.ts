import { DataSource } from 'typeorm';
import { notFound, PROTEIN_METADATA_FIELDS } from '@svc/contracts';
import { bulkInsert } from '../bulk';
import { Db, isoColumn, queryOne, queryRows } from '../sql';

export interface ProteinInput {
  accession: string;
  canonicalAccession: string;
  isCanonical: boolean;
  isoformIndex: number | null;
  sequenceId: number | null;
  entryName: string | null;
  /** 'Cellular tumor antigen p53' (where the entry name is 'P53_HUMAN'). */
  proteinName: string | null;
  geneName: string | null;
  organism: string | null;
  taxonomyId: string | null;
  length: number | null;
  reviewed: boolean | null;
}

/** The metadata columns: the contract's list (libs/contracts), one source for both. */
export const METADATA_FIELDS = PROTEIN_METADATA_FIELDS;
export type MetadataField = (typeof METADATA_FIELDS)[number];

const PROTEIN_COLUMNS = [
  'p.accession',
  'p.canonical_accession',
  'p.is_canonical',
  'p.isoform_index',
  'p.sequence_id',
  'p.entry_name',
  'p.protein_name',
  'p.gene_name',
  'p.organism',
  'p.taxonomy_id',
  'p.length',
  'p.reviewed',
  isoColumn('p.created_at', 'created_at'),
  isoColumn('p.updated_at', 'updated_at'),
].join(', ');

export interface ProteinListFilter {
  search?: string;
  reviewed?: boolean;
  canonicalOnly: boolean;
  limit: number;
  offset: number;
}

/** Proteins, their sequences (one row per distinct amino-acid string, by MD5) and UniProt metadata. */
export class ProteinRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Stores a page of proteins with their sequences in one transaction: each distinct sequence once
   * (by its hash), each protein by accession pointing at it. Safe to run again.
   */
  async storeWithSequences(
    entries: (Omit<ProteinInput, 'sequenceId'> & { sequence: { sequence: string; hash: string } | null })[],
  ): Promise<{ proteins: number; sequences: number }> {
    return this.db.transaction(async (tx) => {
      const ids = await this.upsertSequences(
        tx,
        entries.flatMap((e) => (e.sequence !== null ? [e.sequence] : [])),
      );
      const rows = entries.map(({ sequence, ...protein }) => ({
        ...protein,
        sequenceId: sequence !== null ? (ids.get(sequence.hash) ?? null) : null,
      }));
      await this.upsertProteins(tx, rows);
      return { proteins: rows.length, sequences: ids.size };
    });
  }

  /** Refreshes proteins already loaded (their core fields), in one transaction. */
  refreshProteins(proteins: ProteinInput[]): Promise<number> {
    return this.db.transaction((tx) => this.upsertProteins(tx, proteins));
  }

  /** Stores a page of UniProt metadata, in one transaction. */
  saveMetadata(rows: Parameters<ProteinRepository['upsertMetadata']>[1]): Promise<number> {
    return this.db.transaction((tx) => this.upsertMetadata(tx, rows));
  }

  /** Inserts missing sequences and returns the id of every given hash. */
  async upsertSequences(
    db: Db,
    sequences: { sequence: string; hash: string }[],
  ): Promise<Map<string, number>> {
    const unique = [...new Map(sequences.map((s) => [s.hash, s])).values()];
    const rows = await bulkInsert<{ id: number; sequence_hash: string }>(db, {
      table: 'sequence',
      columns: [
        { name: 'sequence', type: 'text' },
        { name: 'sequence_hash', type: 'text' },
      ],
      rows: unique.map((s) => [s.sequence, s.hash]),
      // Touching updated_at makes RETURNING yield the existing rows too.
      onConflict: 'ON CONFLICT (sequence_hash) DO UPDATE SET updated_at = sequence.updated_at',
      returning: 'id, sequence_hash',
    });
    return new Map(rows.map((r) => [r.sequence_hash, r.id]));
  }

  /** Inserts or updates proteins by accession (safe to run again). */
  async upsertProteins(db: Db, proteins: ProteinInput[]): Promise<number> {
    const unique = [...new Map(proteins.map((p) => [p.accession, p])).values()];
    await bulkInsert(db, {
      table: 'protein',
      columns: [
        { name: 'accession', type: 'text' },
        { name: 'canonical_accession', type: 'text' },
        { name: 'is_canonical', type: 'bool' },
        { name: 'isoform_index', type: 'int' },
        { name: 'sequence_id', type: 'int' },
        { name: 'entry_name', type: 'text' },
        { name: 'protein_name', type: 'text' },
        { name: 'gene_name', type: 'text' },
        { name: 'organism', type: 'text' },
        { name: 'taxonomy_id', type: 'text' },
        { name: 'length', type: 'int' },
        { name: 'reviewed', type: 'bool' },
      ],
      rows: unique.map((p) => [
        p.accession,
        p.canonicalAccession,
        p.isCanonical,
        p.isoformIndex,
        p.sequenceId,
        p.entryName,
        p.proteinName,
        p.geneName,
        p.organism,
        p.taxonomyId,
        p.length,
        p.reviewed,
      ]),
      onConflict: `ON CONFLICT (accession) DO UPDATE SET
        canonical_accession = EXCLUDED.canonical_accession, is_canonical = EXCLUDED.is_canonical,
        isoform_index = EXCLUDED.isoform_index, sequence_id = COALESCE(EXCLUDED.sequence_id, protein.sequence_id),
        entry_name = COALESCE(EXCLUDED.entry_name, protein.entry_name),
        protein_name = COALESCE(EXCLUDED.protein_name, protein.protein_name), gene_name = COALESCE(EXCLUDED.gene_name, protein.gene_name),
        organism = COALESCE(EXCLUDED.organism, protein.organism), taxonomy_id = COALESCE(EXCLUDED.taxonomy_id, protein.taxonomy_id),
        length = COALESCE(EXCLUDED.length, protein.length), reviewed = COALESCE(EXCLUDED.reviewed, protein.reviewed),
        updated_at = clock_timestamp()`,
    });
    return unique.length;
  }

  /** Upserts UniProt metadata by canonical accession; absent fields keep their stored value. */
  async upsertMetadata(
    db: Db,
    rows: ({ canonicalAccession: string } & Partial<Record<MetadataField, string | null>>)[],
  ): Promise<number> {
    const unique = [...new Map(rows.map((r) => [r.canonicalAccession, r])).values()];
    await bulkInsert(db, {
      table: 'protein_uniprot_metadata',
      columns: [
        { name: 'canonical_accession', type: 'text' },
        ...METADATA_FIELDS.map((f) => ({ name: f, type: 'text' })),
      ],
      rows: unique.map((r) => [r.canonicalAccession, ...METADATA_FIELDS.map((f) => r[f] ?? null)]),
      onConflict: `ON CONFLICT (canonical_accession) DO UPDATE SET ${METADATA_FIELDS.map(
        (f) => `${f} = COALESCE(EXCLUDED.${f}, protein_uniprot_metadata.${f})`,
      ).join(', ')}, updated_at = clock_timestamp()`,
    });
    return unique.length;
  }

  async list(
    filter: ProteinListFilter,
  ): Promise<{ items: Record<string, unknown>[]; total: number; limit: number; offset: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.canonicalOnly) where.push('p.is_canonical');
    if (filter.reviewed !== undefined) {
      params.push(filter.reviewed);
      where.push(`p.reviewed = $${params.length}`);
    }
    if (filter.search !== undefined && filter.search.trim() !== '') {
      params.push(`%${filter.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      const i = params.length;
      where.push(
        `(p.accession ILIKE $${i} OR p.entry_name ILIKE $${i} OR p.protein_name ILIKE $${i} OR p.gene_name ILIKE $${i}
          OR p.organism ILIKE $${i})`,
      );
    }
    const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    const total = await queryOne<{ n: number }>(
      this.db,
      `SELECT count(*)::int AS n FROM protein p ${clause}`,
      params,
    );
    const items = await queryRows<Record<string, unknown>>(
      this.db,
      `SELECT ${PROTEIN_COLUMNS} FROM protein p ${clause} ORDER BY p.accession LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, filter.limit, filter.offset],
    );
    return { items, total: total?.n ?? 0, limit: filter.limit, offset: filter.offset };
  }

  /** Which of these accessions are loaded proteins. */
  async existingAccessions(accessions: readonly string[]): Promise<Set<string>> {
    const rows = await queryRows<{ accession: string }>(
      this.db,
      `SELECT accession FROM protein WHERE accession = ANY($1::text[])`,
      [[...accessions]],
    );
    return new Set(rows.map((r) => r.accession));
  }

  async exists(accession: string): Promise<boolean> {
    return (await queryOne(this.db, `SELECT 1 FROM protein WHERE accession = $1`, [accession])) !== null;
  }

  /** Core fields, UniProt metadata, embedding and annotation counts, and isoforms of a canonical entry. */
  async detail(accession: string): Promise<Record<string, unknown>> {
    const protein = await queryOne<
      Record<string, unknown> & {
        canonical_accession: string;
        is_canonical: boolean;
        sequence_id: number | null;
      }
    >(this.db, `SELECT ${PROTEIN_COLUMNS} FROM protein p WHERE p.accession = $1`, [accession]);
    if (protein === null) throw notFound('Protein');
    const metadata = await queryOne(
      this.db,
      `SELECT ${METADATA_FIELDS.join(', ')} FROM protein_uniprot_metadata WHERE canonical_accession = $1`,
      [protein.canonical_accession],
    );
    const annotations = await queryOne<{ n: number }>(
      this.db,
      `SELECT count(*)::int AS n FROM protein_go_annotation WHERE protein_accession = $1`,
      [accession],
    );
    const isoforms = protein.is_canonical
      ? (
          await queryRows<{ accession: string }>(
            this.db,
            `SELECT accession FROM protein WHERE canonical_accession = $1 AND NOT is_canonical ORDER BY isoform_index, accession`,
            [accession],
          )
        ).map((r) => r.accession)
      : [];
    return {
      ...protein,
      metadata,
      embedding_count: await this.embeddingCount(protein.sequence_id),
      go_annotation_count: annotations?.n ?? 0,
      isoform_accessions: isoforms,
    };
  }

  /**
   * Totals for the statistics endpoint, which is public: `sequences` counts the proteins' distinct
   * sequences, not the sequence table, which also holds what query sets uploaded.
   */
  async stats(): Promise<Record<string, number>> {
    const row = await queryOne<Record<string, number>>(
      this.db,
      `SELECT count(*)::int AS proteins,
              count(*) FILTER (WHERE is_canonical)::int AS canonical,
              count(*) FILTER (WHERE NOT is_canonical)::int AS isoforms,
              count(*) FILTER (WHERE reviewed)::int AS reviewed,
              (SELECT count(*)::int FROM protein p JOIN protein_uniprot_metadata m ON m.canonical_accession = p.canonical_accession) AS with_metadata,
              (SELECT count(DISTINCT protein_accession)::int FROM protein_go_annotation) AS with_go_annotations,
              count(DISTINCT sequence_id)::int AS sequences
         FROM protein`,
    );
    const withEmbeddings = await this.proteinsWithEmbeddings();
    return { ...(row ?? {}), with_embeddings: withEmbeddings };
  }

  /** Sequences referenced by no protein and no query-set entry. */
  async countOrphanSequences(): Promise<number> {
    const row = await queryOne<{ n: number }>(
      this.db,
      `SELECT count(*)::int AS n FROM sequence s WHERE ${ORPHAN_SEQUENCE}`,
    );
    return row?.n ?? 0;
  }

  async deleteOrphanSequences(): Promise<number> {
    const row = await queryOne<{ n: number }>(
      this.db,
      `WITH gone AS (DELETE FROM sequence s WHERE ${ORPHAN_SEQUENCE} RETURNING 1) SELECT count(*)::int AS n FROM gone`,
    );
    return row?.n ?? 0;
  }

  private async embeddingCount(sequenceId: number | null): Promise<number> {
    if (sequenceId === null) return 0;
    const row = await queryOne<{ n: number }>(
      this.db,
      `SELECT count(*)::int AS n FROM embedding WHERE sequence_id = $1`,
      [sequenceId],
    );
    return row?.n ?? 0;
  }

  private async proteinsWithEmbeddings(): Promise<number> {
    const row = await queryOne<{ n: number }>(
      this.db,
      `SELECT count(*)::int AS n FROM protein p WHERE EXISTS (SELECT 1 FROM embedding e WHERE e.sequence_id = p.sequence_id)`,
    );
    return row?.n ?? 0;
  }
}

const ORPHAN_SEQUENCE = `NOT EXISTS (SELECT 1 FROM protein p WHERE p.sequence_id = s.id)
  AND NOT EXISTS (SELECT 1 FROM query_set_entry q WHERE q.sequence_id = s.id)`;
