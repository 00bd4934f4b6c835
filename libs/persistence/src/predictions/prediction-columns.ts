import { ALIGNMENT_FEATURES } from '@svc/domain';

/** Stored per-row columns of the prediction table written by the write step, in insert order. */
export const PREDICTION_ROW_COLUMNS = [
  { name: 'protein_accession', type: 'text' },
  { name: 'go_term_id', type: 'int' },
  { name: 'go_id', type: 'text' },
  { name: 'aspect', type: 'text' },
  { name: 'distance', type: 'real' },
  { name: 'ref_protein_accession', type: 'text' },
  { name: 'qualifier', type: 'text' },
  { name: 'evidence_code', type: 'text' },
  { name: 'identity_nw', type: 'real' },
  { name: 'similarity_nw', type: 'real' },
  { name: 'alignment_score_nw', type: 'real' },
  { name: 'gaps_pct_nw', type: 'real' },
  { name: 'alignment_length_nw', type: 'int' },
  { name: 'identity_sw', type: 'real' },
  { name: 'similarity_sw', type: 'real' },
  { name: 'alignment_score_sw', type: 'real' },
  { name: 'gaps_pct_sw', type: 'real' },
  { name: 'alignment_length_sw', type: 'int' },
  { name: 'length_query', type: 'int' },
  { name: 'length_ref', type: 'int' },
  { name: 'query_taxonomy_id', type: 'text' },
  { name: 'ref_taxonomy_id', type: 'text' },
  { name: 'taxonomic_lca', type: 'text' },
  { name: 'taxonomic_distance', type: 'int' },
  { name: 'taxonomic_common_ancestors', type: 'int' },
  { name: 'taxonomic_relation', type: 'text' },
  { name: 'vote_count', type: 'int' },
  { name: 'k_position', type: 'int' },
  { name: 'go_term_frequency', type: 'int' },
  { name: 'ref_annotation_density', type: 'int' },
  { name: 'neighbor_distance_std', type: 'real' },
  { name: 'neighbor_vote_fraction', type: 'real' },
  { name: 'features', type: 'jsonb' },
] as const;

export type PredictionRowColumn = (typeof PREDICTION_ROW_COLUMNS)[number]['name'];
export type PredictionRow = Partial<Record<PredictionRowColumn, unknown>>;

/** The stored columns' names, in order: what a columnar write message names. */
export const PREDICTION_ROW_COLUMN_NAMES: readonly string[] = PREDICTION_ROW_COLUMNS.map((c) => c.name);

/**
 * Rows as one JSON text, column by column in PREDICTION_ROW_COLUMNS order, `features` as its JSON
 * text: a write message's `values`. A value missing from a row is null.
 */
export function encodePredictionColumns(rows: PredictionRow[]): string {
  return JSON.stringify(
    PREDICTION_ROW_COLUMNS.map(({ name }) =>
      name === 'features'
        ? rows.map((r) => JSON.stringify(r.features ?? {}))
        : rows.map((r) => r[name] ?? null),
    ),
  );
}

/**
 * The columns of `encodePredictionColumns`, or a reason they cannot be stored: `names` must be the
 * stored columns in order, and `values` one array per column, all of one length, holding only
 * strings, finite numbers and nulls (the database checks each against its column's type).
 */
export function decodePredictionColumns(
  names: readonly string[],
  values: string,
): { values: unknown[][] } | { error: string } {
  if (
    names.length !== PREDICTION_ROW_COLUMN_NAMES.length ||
    names.some((n, i) => n !== PREDICTION_ROW_COLUMN_NAMES[i])
  )
    return { error: `columns must be ${PREDICTION_ROW_COLUMN_NAMES.join(', ')}` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(values);
  } catch {
    return { error: 'values is not JSON' };
  }
  if (!Array.isArray(parsed) || parsed.length !== names.length)
    return { error: `values must hold ${names.length} columns` };
  const count = Array.isArray(parsed[0]) ? parsed[0].length : -1;
  for (const [i, column] of parsed.entries()) {
    if (!Array.isArray(column) || column.length !== count)
      return { error: `column ${names[i]} must be an array of ${count} values` };
    for (const value of column)
      if (
        value !== null &&
        typeof value !== 'string' &&
        !(typeof value === 'number' && Number.isFinite(value))
      )
        return { error: `column ${names[i]} holds a value that is not a string, a finite number or null` };
  }
  return { values: parsed as unknown[][] };
}

/**
 * A row's score in SQL over the prediction alias `p`: max(0, 1 - distance), the specification's
 * formula (docs/prediction.md, "Score"); a homology-blend row stores 1 - its calibrated score.
 */
export const ROW_SCORE_SQL = 'GREATEST(0, LEAST(1, 1 - p.distance::float8))';

/** The 32 columns of predictions.tsv (DESIGN.md §3). */
export const PREDICTIONS_TSV_COLUMNS = [
  'protein_accession',
  'go_id',
  'go_name',
  'go_aspect',
  'distance',
  'ref_protein_accession',
  'qualifier',
  'evidence_code',
  ...ALIGNMENT_FEATURES,
  'query_taxonomy_id',
  'ref_taxonomy_id',
  'taxonomic_lca',
  'taxonomic_distance',
  'taxonomic_common_ancestors',
  'taxonomic_relation',
  'vote_count',
  'k_position',
  'go_term_frequency',
  'ref_annotation_density',
  'neighbor_distance_std',
  'neighbor_vote_fraction',
] as const;

/**
 * What every reader of prediction rows reads: the stored rows and the prior-only rows composed at
 * read (migration ComposedPrior1765900000000, docs/scaling.md "Storage"); a composed row's id is 0.
 */
export const PREDICTION_ROWS = 'prediction_row';

/** The order of a set's rows in every download and read: accession, distance, GO id, row id. */
export const ROW_ORDER_SQL = 'p.protein_accession, p.distance, p.go_id, p.id';

/**
 * The rows of the set whose id is the SQL expression `set`, stored and composed, counted without
 * composing them (each composed (protein, aspect) records how many rows it composes).
 */
export function setRowCountSql(set: string): string {
  return `((SELECT count(*) FROM prediction p WHERE p.prediction_set_id = ${set})
    + (SELECT COALESCE(sum(w.composed_rows), 0) FROM prediction_prior_weight w WHERE w.prediction_set_id = ${set}))::int`;
}
