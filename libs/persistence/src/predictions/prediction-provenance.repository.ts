import { DataSource } from 'typeorm';
import {
  coverageOf,
  DONOR_EVIDENCE_CODES,
  type Aspect,
  type Coverage,
  type QuerySummary,
  type ReferenceSummary,
} from '@svc/domain';
import { bulkInsert } from '../bulk';
import { Db, queryOne, queryRows } from '../sql';
import { ReferencePoolRepository } from './reference-pool.repository';

/** The reference fields the coordinator reads from the database; the rest it knows itself. */
export type StoredReference = Omit<
  ReferenceSummary,
  'search_backend' | 'blend_version' | 'blend_donor_evidence' | 'self_transfer'
>;

/**
 * What backs a prediction set: the reference it was made against (`prediction_set.reference`) and
 * per query its homologs, best identity and known terms (`prediction_query_summary`).
 */
interface DonorCounts {
  perAspect: { aspect: Aspect | null; proteins: number }[];
  species: { taxon: string | null; proteins: number }[];
}

/** Donor counts per (set, donor rule, protein table version), kept by the process (see describeReference). */
const DONOR_COUNTS = new Map<string, Promise<DonorCounts>>();

/** PostgreSQL's ORDER BY taxon: NULL last. */
function compareTaxa(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

export class PredictionProvenanceRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * The reference of an (annotation set, donor rule) as a prediction sees it: donor proteins are
   * proteins with a sequence and a non-NOT annotation the rule lets donate, counted per aspect, and
   * their species from the annotations' taxon column (else the protein's).
   */
  async describeReference(
    annotationSetId: string,
    donorEvidence: 'experimental' | 'all',
  ): Promise<StoredReference | null> {
    const set = await queryOne<{
      reference_name: string | null;
      annotation_set_id: string;
      annotation_set_label: string;
      annotation_source_version: string;
      ontology_snapshot_id: string;
      ontology_version: string;
    }>(
      this.db,
      `SELECT (SELECT b.name FROM reference_bundle b WHERE b.annotation_set_id = a.id
                ORDER BY b.installed_at DESC LIMIT 1) AS reference_name,
              a.id AS annotation_set_id, (a.source || ' ' || a.source_version) AS annotation_set_label,
              a.source_version AS annotation_source_version, o.id AS ontology_snapshot_id, o.obo_version AS ontology_version
         FROM annotation_set a JOIN ontology_snapshot o ON o.id = a.ontology_snapshot_id WHERE a.id = $1`,
      [annotationSetId],
    );
    if (set === null) return null;
    // The donor counts walk the set's annotations (seconds at Swiss-Prot scale): done once per set,
    // donor rule and protein table version in each process, in one pass for both groupings.
    const version = await new ReferencePoolRepository(this.db).sequencePoolVersion(annotationSetId);
    const key = [annotationSetId, donorEvidence, version].join('|');
    let counting = DONOR_COUNTS.get(key);
    if (counting === undefined) {
      counting = this.donorCounts(annotationSetId, donorEvidence);
      DONOR_COUNTS.set(key, counting);
      counting.catch(() => DONOR_COUNTS.delete(key));
      while (DONOR_COUNTS.size > 16) DONOR_COUNTS.delete(DONOR_COUNTS.keys().next().value!);
    }
    const { perAspect, species } = await counting;
    const count = (aspect: Aspect | null): number =>
      perAspect.find((r) => r.aspect === aspect)?.proteins ?? 0;
    return {
      ...set,
      donor_evidence: donorEvidence,
      donor_proteins: count(null),
      donor_proteins_per_aspect: { F: count('F'), P: count('P'), C: count('C') },
      donor_species: species.map((s) => ({ taxon: s.taxon ?? 'unknown', proteins: s.proteins })),
    };
  }

  /**
   * Donor proteins (a sequence and a non-NOT annotation the rule lets donate) per aspect, in all, and
   * the five commonest species, from the annotations' taxon column (else the protein's): one scan.
   */
  private async donorCounts(
    annotationSetId: string,
    donorEvidence: 'experimental' | 'all',
  ): Promise<DonorCounts> {
    const codes = donorEvidence === 'experimental' ? DONOR_EVIDENCE_CODES : null;
    const rows = await queryRows<{
      aspect: Aspect | null;
      taxon: string | null;
      by_taxon: boolean;
      proteins: number;
    }>(
      this.db,
      `WITH d AS (
         SELECT a.protein_accession, a.aspect,
                regexp_replace(coalesce(a.taxon_id, p.taxonomy_id), '^(taxon:)?', 'taxon:') AS taxon
           FROM protein_go_annotation a JOIN protein p ON p.accession = a.protein_accession
          WHERE a.annotation_set_id = $1 AND NOT a.is_not AND a.aspect IN ('F', 'P', 'C')
            AND p.sequence_id IS NOT NULL AND ($2::text[] IS NULL OR a.evidence_code = ANY($2::text[])))
       SELECT aspect, taxon, GROUPING(taxon) = 0 AS by_taxon, count(DISTINCT protein_accession)::int AS proteins
         FROM d GROUP BY GROUPING SETS ((aspect), (), (taxon))`,
      [annotationSetId, codes],
    );
    const perAspect = rows.filter((r) => !r.by_taxon).map(({ aspect, proteins }) => ({ aspect, proteins }));
    const species = rows
      .filter((r) => r.by_taxon)
      .sort((a, b) => b.proteins - a.proteins || compareTaxa(a.taxon, b.taxon))
      .slice(0, 5)
      .map(({ taxon, proteins }) => ({ taxon, proteins }));
    return { perAspect, species };
  }

  async setReference(predictionSetId: string, reference: ReferenceSummary): Promise<void> {
    await this.db.query(`UPDATE prediction_set SET reference = $2 WHERE id = $1`, [
      predictionSetId,
      JSON.stringify(reference),
    ]);
  }

  async reference(predictionSetId: string, db: Db = this.db): Promise<ReferenceSummary | null> {
    const row = await queryOne<{ reference: ReferenceSummary | null }>(
      db,
      `SELECT reference FROM prediction_set WHERE id = $1`,
      [predictionSetId],
    );
    return row?.reference ?? null;
  }

  /** Stores a write step's query summaries in its transaction; a query stored before keeps its row. */
  async writeQuerySummaries(
    predictionSetId: string,
    summaries: QuerySummary[],
    tx: Db = this.db,
  ): Promise<void> {
    if (summaries.length === 0) return;
    await bulkInsert(tx, {
      table: 'prediction_query_summary',
      columns: [
        { name: 'prediction_set_id', type: 'uuid' },
        { name: 'protein_accession', type: 'text' },
        { name: 'homologs', type: 'int' },
        { name: 'best_identity', type: 'real' },
        { name: 'known_terms', type: 'int' },
      ],
      rows: summaries.map((s) => [predictionSetId, s.accession, s.homologs, s.best_identity, s.known_terms]),
      onConflict: 'ON CONFLICT (prediction_set_id, protein_accession) DO NOTHING',
    });
  }

  /**
   * The set's coverage from its query summaries (a query with known terms is not one without a
   * homolog: its own annotations back it); null for a set made before summaries existed.
   */
  async coverage(predictionSetId: string, db: Db = this.db): Promise<Coverage | null> {
    const row = await queryOne<{ queries: number; without_homolog: number; known: number }>(
      db,
      `SELECT count(*)::int AS queries,
              count(*) FILTER (WHERE homologs = 0 AND known_terms = 0)::int AS without_homolog,
              count(*) FILTER (WHERE known_terms > 0)::int AS known
         FROM prediction_query_summary WHERE prediction_set_id = $1`,
      [predictionSetId],
    );
    return row === null || row.queries === 0 ? null : coverageOf(row);
  }

  /** Every query summary of a set, by accession (for the exports: one row per query). */
  async querySummaries(predictionSetId: string): Promise<Map<string, QuerySummary>> {
    const rows = await queryRows<{
      protein_accession: string;
      homologs: number;
      best_identity: number | null;
      known_terms: number;
    }>(
      this.db,
      `SELECT protein_accession, homologs, best_identity::float8 AS best_identity, known_terms
         FROM prediction_query_summary WHERE prediction_set_id = $1`,
      [predictionSetId],
    );
    return new Map(
      rows.map((r) => [
        r.protein_accession,
        {
          accession: r.protein_accession,
          homologs: r.homologs,
          best_identity: r.best_identity === null ? null : Number(r.best_identity.toFixed(4)),
          known_terms: r.known_terms,
        },
      ]),
    );
  }
}
