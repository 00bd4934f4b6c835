import type { GeneAnnotation } from '@svc/domain';
import { DataSource } from 'typeorm';
import { DomainError, notFound } from '@svc/contracts';
import { copyInto, type CopyWriter } from '../bulk';
import { Db, isoColumn, queryOne, queryRows } from '../sql';
import { loadHoldoutAnnotations } from '../evaluations/holdout-annotations';

export interface AnnotationSetView {
  id: string;
  source: 'goa' | 'quickgo';
  source_version: string;
  ontology_snapshot_id: string;
  obo_version: string;
  source_url: string | null;
  job_id: string | null;
  annotation_count: number;
  stats: Record<string, unknown>;
  created_at: string;
}

const SET_COLUMNS = [
  's.id',
  's.source',
  's.source_version',
  's.ontology_snapshot_id',
  'o.obo_version',
  's.source_url',
  's.job_id',
  's.annotation_count',
  's.stats',
  isoColumn('s.created_at', 'created_at'),
].join(', ');

/** Loads at least this large refresh the annotation table's planner statistics when they commit. */
const ANALYZE_AFTER_ROWS = 50_000;

/** One annotation as stored: GAF / QuickGO fields verbatim, GO id resolved to the snapshot's term. */
export interface AnnotationRow {
  proteinAccession: string;
  goTermId: number;
  goId: string;
  aspect: string | null;
  qualifier: string | null;
  isNot: boolean;
  evidenceCode: string;
  db: string | null;
  dbObjectSymbol: string | null;
  dbReference: string | null;
  withFrom: string | null;
  taxonId: string | null;
  annotationDate: string | null;
  assignedBy: string | null;
  annotationExtension: string | null;
  geneProductFormId: string | null;
}

export const ANNOTATION_COLUMNS = [
  { name: 'annotation_set_id', type: 'uuid' },
  { name: 'protein_accession', type: 'text' },
  { name: 'go_term_id', type: 'int' },
  { name: 'go_id', type: 'text' },
  { name: 'aspect', type: 'text' },
  { name: 'qualifier', type: 'text' },
  { name: 'is_not', type: 'bool' },
  { name: 'evidence_code', type: 'text' },
  { name: 'db', type: 'text' },
  { name: 'db_object_symbol', type: 'text' },
  { name: 'db_reference', type: 'text' },
  { name: 'with_from', type: 'text' },
  { name: 'taxon_id', type: 'text' },
  { name: 'annotation_date', type: 'date' },
  { name: 'assigned_by', type: 'text' },
  { name: 'annotation_extension', type: 'text' },
  { name: 'gene_product_form_id', type: 'text' },
];

/**
 * A load writes its set and all of its rows in one transaction: the caller opens it with
 * `withinLoad`, streams batches through `insert`, and commits by returning.
 */
export class AnnotationLoad {
  count = 0;

  constructor(
    private readonly tx: Db,
    readonly setId: string,
  ) {}

  private copy: Promise<CopyWriter> | null = null;

  /** Rows go into the set through one COPY for the whole load, ended by `finish`. */
  async insert(rows: AnnotationRow[]): Promise<void> {
    if (rows.length === 0) return;
    this.copy ??= copyInto(this.tx, 'protein_go_annotation', ANNOTATION_COLUMNS);
    await (
      await this.copy
    ).write(
      rows.map((r) => [
        this.setId,
        r.proteinAccession,
        r.goTermId,
        r.goId,
        r.aspect,
        r.qualifier,
        r.isNot,
        r.evidenceCode,
        r.db,
        r.dbObjectSymbol,
        r.dbReference,
        r.withFrom,
        r.taxonId,
        r.annotationDate,
        r.assignedBy,
        r.annotationExtension,
        r.geneProductFormId,
      ]),
    );
    this.count += rows.length;
  }

  /** Ends the load's COPY; its failure (a row PostgreSQL refused) is thrown here at the latest. */
  async finish(): Promise<void> {
    const copy = this.copy;
    this.copy = null;
    if (copy !== null) await (await copy).finish();
  }
}

/** One annotation of a protein, with its term and the source of its set. */
export interface ProteinAnnotationRow {
  id: string;
  annotation_set_id: string;
  source: string;
  source_version: string;
  protein_accession: string;
  go_id: string;
  go_name: string | null;
  go_aspect: 'F' | 'P' | 'C' | null;
  qualifier: string | null;
  is_not: boolean;
  evidence_code: string;
  db_reference: string | null;
  with_from: string | null;
  assigned_by: string | null;
  annotation_date: string | null;
  taxon_id: string | null;
}

export class AnnotationRepository {
  constructor(private readonly db: DataSource) {}

  /** Every annotation of a set in the shape the temporal-holdout split reads. */
  holdoutAnnotations(annotationSetId: string): Promise<GeneAnnotation[]> {
    return loadHoldoutAnnotations(this.db, annotationSetId);
  }

  async withinLoad<T>(
    set: {
      source: 'goa' | 'quickgo';
      sourceVersion: string;
      snapshotId: string;
      sourceUrl: string | null;
      jobId: string | null;
    },
    work: (load: AnnotationLoad) => Promise<{ value: T; stats: Record<string, unknown> }>,
  ): Promise<{ value: T; set: AnnotationSetView }> {
    return this.db.transaction(async (tx) => {
      const created = await queryOne<{ id: string }>(
        tx,
        `INSERT INTO annotation_set (source, source_version, ontology_snapshot_id, source_url, job_id) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [set.source, set.sourceVersion, set.snapshotId, set.sourceUrl, set.jobId],
      );
      const load = new AnnotationLoad(tx, created!.id);
      let outcome: { value: T; stats: Record<string, unknown> };
      try {
        outcome = await work(load);
      } catch (error) {
        // The connection takes no other statement (not even the rollback) while its COPY is open.
        await load.finish().catch(() => undefined);
        throw error;
      }
      await load.finish();
      // A large load changes the table's statistics at once; the planner must not wait for autovacuum
      // (a set of millions of rows planned as a few thousand turns index walks into sorts on disk).
      if (load.count >= ANALYZE_AFTER_ROWS) await queryRows(tx, 'ANALYZE protein_go_annotation');
      const { value, stats } = outcome;
      await queryRows(tx, `UPDATE annotation_set SET annotation_count = $2, stats = $3 WHERE id = $1`, [
        load.setId,
        load.count,
        JSON.stringify(stats),
      ]);
      const view = await this.findById(load.setId, tx);
      return { value, set: view! };
    });
  }

  findById(id: string, db: Db = this.db): Promise<AnnotationSetView | null> {
    return queryOne<AnnotationSetView>(
      db,
      `SELECT ${SET_COLUMNS} FROM annotation_set s JOIN ontology_snapshot o ON o.id = s.ontology_snapshot_id WHERE s.id = $1`,
      [id],
    );
  }

  /** Proteins with at least one (not negated) annotation in the set. */
  async countAnnotatedProteins(annotationSetId: string): Promise<number> {
    const row = await queryOne<{ n: number }>(
      this.db,
      `SELECT count(DISTINCT protein_accession)::int AS n FROM protein_go_annotation WHERE annotation_set_id = $1 AND NOT is_not`,
      [annotationSetId],
    );
    return row?.n ?? 0;
  }

  /** build_go_cooccurrence's counts among these terms: protein counts of pairs and of single terms. */
  async cooccurrenceOf(
    annotationSetId: string,
    termIds: readonly number[],
  ): Promise<{ pairs: { a: number; b: number; n: number }[]; singles: { id: number; n: number }[] }> {
    const pairs = await queryRows<{ a: number; b: number; n: number }>(
      this.db,
      `SELECT go_term_a AS a, go_term_b AS b, protein_count AS n FROM go_cooccurrence
        WHERE annotation_set_id = $1 AND go_term_a = ANY($2::int[]) AND go_term_b = ANY($2::int[])`,
      [annotationSetId, [...termIds]],
    );
    const singles = await queryRows<{ id: number; n: number }>(
      this.db,
      `SELECT go_term_id AS id, protein_count AS n FROM go_term_frequency WHERE annotation_set_id = $1 AND go_term_id = ANY($2::int[])`,
      [annotationSetId, [...termIds]],
    );
    return { pairs, singles };
  }

  /** The newest annotation set that holds annotations, with its snapshot (the one-click default), or null. */
  newestNonEmptySet(): Promise<{ annotation_set_id: string; ontology_snapshot_id: string } | null> {
    return queryOne(
      this.db,
      `SELECT id AS annotation_set_id, ontology_snapshot_id FROM annotation_set WHERE annotation_count > 0
        ORDER BY created_at DESC LIMIT 1`,
    );
  }

  /** The newest annotation set of each of these versions (integer `source_version`) of a source on a snapshot. */
  async newestSetsByVersion(
    source: string,
    snapshotId: string,
    versions: readonly number[],
  ): Promise<Map<number, string>> {
    const rows = await queryRows<{ id: string; source_version: string }>(
      this.db,
      `SELECT DISTINCT ON (source_version) id, source_version FROM annotation_set
        WHERE source = $1 AND ontology_snapshot_id = $2 AND source_version = ANY($3::text[])
        ORDER BY source_version, created_at DESC`,
      [source, snapshotId, versions.map(String)],
    );
    return new Map(rows.map((r) => [Number(r.source_version), r.id]));
  }

  async getById(id: string): Promise<AnnotationSetView> {
    const set = await this.findById(id);
    if (set === null) throw notFound('Annotation set');
    return set;
  }

  list(source?: string): Promise<AnnotationSetView[]> {
    const where = source !== undefined ? 'WHERE s.source = $1' : '';
    return queryRows<AnnotationSetView>(
      this.db,
      `SELECT ${SET_COLUMNS} FROM annotation_set s JOIN ontology_snapshot o ON o.id = s.ontology_snapshot_id ${where}
       ORDER BY s.created_at DESC`,
      source !== undefined ? [source] : [],
    );
  }

  /** Deletes a set and its annotations; refused (409) while prediction sets still use it. */
  async delete(id: string): Promise<{ id: string; deleted: boolean; annotations_deleted: number }> {
    return this.db.transaction(async (tx) => {
      const set = await queryOne<{ annotation_count: number }>(
        tx,
        `SELECT annotation_count FROM annotation_set WHERE id = $1 FOR UPDATE`,
        [id],
      );
      if (set === null) throw notFound('Annotation set');
      const users = await queryOne<{ n: number }>(
        tx,
        `SELECT count(*)::int AS n FROM prediction_set WHERE annotation_set_id = $1`,
        [id],
      );
      if ((users?.n ?? 0) > 0)
        throw new DomainError(
          'conflict',
          `${users?.n} prediction set(s) still reference this annotation set`,
        );
      const removed = await queryOne<{ n: number }>(
        tx,
        `WITH gone AS (DELETE FROM protein_go_annotation WHERE annotation_set_id = $1 RETURNING 1) SELECT count(*)::int AS n FROM gone`,
        [id],
      );
      await queryRows(tx, `DELETE FROM annotation_set WHERE id = $1`, [id]);
      return { id, deleted: true, annotations_deleted: removed?.n ?? 0 };
    });
  }

  /** Every annotation of a protein (all sets, or one), with term details and the set's source. */
  forProtein(accession: string, annotationSetId?: string): Promise<ProteinAnnotationRow[]> {
    const params: unknown[] = [accession];
    let filter = '';
    if (annotationSetId !== undefined) {
      params.push(annotationSetId);
      filter = 'AND a.annotation_set_id = $2';
    }
    return queryRows<ProteinAnnotationRow>(
      this.db,
      `SELECT a.id::text AS id, a.annotation_set_id, s.source, s.source_version, a.protein_accession, a.go_id, t.name AS go_name,
              t.aspect AS go_aspect, a.qualifier, a.is_not, a.evidence_code, a.db_reference, a.with_from, a.assigned_by,
              to_char(a.annotation_date, 'YYYY-MM-DD') AS annotation_date, a.taxon_id
         FROM protein_go_annotation a
         JOIN annotation_set s ON s.id = a.annotation_set_id
         JOIN go_term t ON t.id = a.go_term_id
        WHERE a.protein_accession = $1 ${filter}
        ORDER BY a.go_id, a.evidence_code`,
      params,
    );
  }

  /** Term pair and term counts over the proteins of a set (NOT annotations excluded), then ANALYZE. */
  async buildCooccurrence(id: string): Promise<{ pairs: number; terms: number }> {
    const result = await this.db.transaction(async (tx) => {
      await queryRows(tx, `DELETE FROM go_cooccurrence WHERE annotation_set_id = $1`, [id]);
      await queryRows(tx, `DELETE FROM go_term_frequency WHERE annotation_set_id = $1`, [id]);
      const terms = await queryOne<{ n: number }>(
        tx,
        `WITH ins AS (
           INSERT INTO go_term_frequency (annotation_set_id, go_term_id, protein_count)
           SELECT $1, go_term_id, count(DISTINCT protein_accession) FROM protein_go_annotation
            WHERE annotation_set_id = $1 AND NOT is_not GROUP BY go_term_id RETURNING 1)
         SELECT count(*)::int AS n FROM ins`,
        [id],
      );
      const pairs = await queryOne<{ n: number }>(
        tx,
        `WITH pt AS (SELECT DISTINCT protein_accession, go_term_id FROM protein_go_annotation WHERE annotation_set_id = $1 AND NOT is_not),
         ins AS (
           INSERT INTO go_cooccurrence (annotation_set_id, go_term_a, go_term_b, protein_count)
           SELECT $1, a.go_term_id, b.go_term_id, count(*) FROM pt a JOIN pt b
               ON a.protein_accession = b.protein_accession AND a.go_term_id < b.go_term_id
            GROUP BY a.go_term_id, b.go_term_id RETURNING 1)
         SELECT count(*)::int AS n FROM ins`,
        [id],
      );
      return { pairs: pairs?.n ?? 0, terms: terms?.n ?? 0 };
    });
    // Without fresh statistics the planner scans these tables badly on reads.
    await this.db.query('ANALYZE go_cooccurrence');
    await this.db.query('ANALYZE go_term_frequency');
    return result;
  }
}
