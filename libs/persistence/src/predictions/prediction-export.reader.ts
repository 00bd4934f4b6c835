import { Db, jsNumberText, queryTextRows } from '../sql';
import {
  PREDICTION_ROW_COLUMNS,
  PREDICTION_ROWS,
  PREDICTIONS_TSV_COLUMNS,
  ROW_ORDER_SQL,
  ROW_SCORE_SQL,
} from './prediction-columns';
import { type ProteinBatch, readProteinBatches, type TsvFilters } from './prediction-filters';

/** One text row of predictions.tsv, in PREDICTIONS_TSV_COLUMNS order (null where the value is NULL). */
export type TsvTextRow = (string | null)[];

/** The best row of one (protein, term): what the CAFA, GAF and JSON downloads print. */
export interface BestTermRow {
  goId: string;
  score: number;
  aspect: string;
  /**
   * The query's NCBI taxon: its query-set entry's (OX= of its FASTA header, else the taxon given with
   * the upload), else the row's own `query_taxonomy_id` (a set over reference proteins).
   */
  queryTaxonomyId: string | null;
  /**
   * The query's gene name: its query-set entry's (GN= of its FASTA header), else null (no GN=, or a
   * set over reference proteins). The DB Object Symbol of its GAF lines.
   */
  geneName: string | null;
  donor: string | null;
  goName: string | null;
  identity: number | null;
  evidenceCode: string | null;
  /** The query's own annotation (self-transfer), not a prediction: score 1. */
  known: boolean;
  /** A term the upload said is known of the query (GO=, or an ancestor of one), not a prediction: score 1. */
  submitted: boolean;
}

/** Rows per batch: each batch is whole proteins, about this many rows, read in one statement. */
const BATCH_ROWS = 20_000;

const NUMERIC = new Set<string>([
  'distance',
  ...PREDICTION_ROW_COLUMNS.filter((c) => c.type === 'real' || c.type === 'int').map((c) => c.name),
]);

/** The select expression of one predictions.tsv column (GO name from the term, aspect from the row). */
function columnSelect(column: (typeof PREDICTIONS_TSV_COLUMNS)[number]): string {
  if (column === 'go_name') return 't.name';
  if (column === 'go_aspect') return 'p.aspect';
  if (column === 'distance') return 'p.distance::float8';
  return `p.${column}`;
}

/** predictions.tsv's 32 columns as a select list. */
const TSV_SELECT = PREDICTIONS_TSV_COLUMNS.map(columnSelect).join(', ');

const NUMERIC_INDEXES = PREDICTIONS_TSV_COLUMNS.flatMap((c, i) => (NUMERIC.has(c) ? [i] : []));

/**
 * training-data.tsv's 31 columns: accession, GO id, aspect, a NULL where the caller puts the label,
 * then predictions.tsv's columns from `distance` to `neighbor_vote_fraction` at the same positions.
 */
const TRAINING_SELECT = [
  'p.protein_accession',
  'p.go_id',
  'p.aspect',
  'NULL',
  ...PREDICTIONS_TSV_COLUMNS.slice(4, 31).map(columnSelect),
].join(', ');

const TRAINING_NUMERIC_INDEXES = NUMERIC_INDEXES.filter((i) => i >= 4 && i < 31);

/**
 * The downloads of a prediction set, read as PostgreSQL text in batches of whole proteins (keyed by
 * accession, so no connection is held between batches and memory stays flat in the set's size).
 * The rows and their order are those of the row-object reader (`PredictionSetRepository.streamRows`),
 * printed the same way; only the parsing is skipped.
 */
export class PredictionExportReader {
  constructor(private readonly db: Db) {}

  /** predictions.tsv rows, by accession, then distance, then GO id (then row id). */
  async *tsvRows(id: string, filters: TsvFilters, batchRows = BATCH_ROWS): AsyncGenerator<TsvTextRow[]> {
    const read = (batch: ProteinBatch) =>
      queryTextRows(
        this.db,
        `SELECT ${TSV_SELECT} FROM ${PREDICTION_ROWS} p LEFT JOIN go_term t ON t.id = p.go_term_id
          WHERE ${batch.where} ORDER BY ${ROW_ORDER_SQL}`,
        batch.params,
      );
    for await (const rows of readProteinBatches(this.db, id, filters, batchRows, read)) {
      for (const row of rows) for (const i of NUMERIC_INDEXES) row[i] = jsNumberText(row[i] ?? null);
      if (rows.length > 0) yield rows;
    }
  }

  /**
   * training-data.tsv rows without their labels (index 3 is null), in predictions.tsv's order; no
   * GO term join, since the file names no term.
   */
  async *trainingRows(id: string, batchRows = BATCH_ROWS): AsyncGenerator<TsvTextRow[]> {
    const read = (batch: ProteinBatch) =>
      queryTextRows(
        this.db,
        `SELECT ${TRAINING_SELECT} FROM ${PREDICTION_ROWS} p WHERE ${batch.where} ORDER BY ${ROW_ORDER_SQL}`,
        batch.params,
      );
    for await (const rows of readProteinBatches(this.db, id, {}, batchRows, read)) {
      for (const row of rows) for (const i of TRAINING_NUMERIC_INDEXES) row[i] = jsNumberText(row[i] ?? null);
      if (rows.length > 0) yield rows;
    }
  }

  /**
   * Each protein with its best row per term: the highest score, the first by distance and row id
   * among equal scores; best first, then by GO id. The taxon comes from the query-set entry when the
   * set has one, so it does not depend on the taxonomy features having been computed; the gene name
   * only from the entry.
   */
  async *bestTerms(
    id: string,
    filters: TsvFilters,
    batchRows = BATCH_ROWS,
  ): AsyncGenerator<{ protein: string; terms: BestTermRow[] }> {
    const read = (batch: ProteinBatch) =>
      queryTextRows(
        this.db,
        `SELECT b.protein_accession, b.go_id, b.score, b.aspect, COALESCE(e.taxonomy_id::text, b.query_taxonomy_id),
                b.ref_protein_accession, t.name, b.identity, b.evidence_code, e.gene_name, b.known, b.submitted
           FROM (SELECT DISTINCT ON (p.protein_accession, p.go_id) p.protein_accession, p.go_id, p.go_term_id,
                        ${ROW_SCORE_SQL} AS score, p.aspect, p.query_taxonomy_id, p.ref_protein_accession, p.evidence_code,
                        COALESCE(p.features ->> 'identity', p.identity_sw::text) AS identity,
                        (p.features ->> 'source') IS NOT DISTINCT FROM 'known' AS known,
                        (p.features ->> 'source') IS NOT DISTINCT FROM 'submitted' AS submitted
                   FROM ${PREDICTION_ROWS} p WHERE ${batch.where}
                  ORDER BY p.protein_accession, p.go_id, score DESC, p.distance, p.id) b
           LEFT JOIN go_term t ON t.id = b.go_term_id
           LEFT JOIN prediction_set s ON s.id = $1
           LEFT JOIN query_set_entry e ON e.query_set_id = s.query_set_id AND e.accession = b.protein_accession
          ORDER BY b.protein_accession, b.score DESC, b.go_id COLLATE "C"`,
        batch.params,
      );
    for await (const rows of readProteinBatches(this.db, id, filters, batchRows, read)) {
      let protein: string | null = null;
      let terms: BestTermRow[] = [];
      for (const r of rows) {
        if (r[0] !== protein) {
          if (protein !== null) yield { protein, terms };
          protein = r[0]!;
          terms = [];
        }
        terms.push({
          goId: r[1]!,
          score: Number(r[2]),
          aspect: r[3]!,
          queryTaxonomyId: r[4] ?? null,
          donor: r[5] ?? null,
          goName: r[6] ?? null,
          identity: r[7] === null || r[7] === undefined ? null : Number(r[7]),
          evidenceCode: r[8] ?? null,
          geneName: r[9] ?? null,
          known: r[10] === 't' || r[10] === 'true',
          submitted: r[11] === 't' || r[11] === 'true',
        });
      }
      if (protein !== null) yield { protein, terms };
    }
  }
}
