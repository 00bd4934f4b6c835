import { PREDICTION_ROWS, PREDICTIONS_TSV_COLUMNS, ROW_ORDER_SQL } from './prediction-columns';

/**
 * The psql `\copy` of a set's predictions.tsv columns in the downloads' order, to standard output:
 * what a user with database access would run instead of a download (the benchmarks time both).
 */
export function predictionsTsvCopyCommand(predictionSetId: string): string {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(predictionSetId))
    throw new Error('a prediction set id is a UUID');
  const columns = PREDICTIONS_TSV_COLUMNS.map((c) =>
    c === 'go_name' ? 't.name' : c === 'go_aspect' ? 'p.aspect' : `p.${c}`,
  ).join(', ');
  return `\\copy (SELECT ${columns} FROM ${PREDICTION_ROWS} p LEFT JOIN go_term t ON t.id = p.go_term_id WHERE p.prediction_set_id = '${predictionSetId}' ORDER BY ${ROW_ORDER_SQL}) TO STDOUT`;
}

/**
 * The psql commands that COPY a tab-separated file of `columns` text columns into a throw-away table:
 * the fastest load PostgreSQL offers, which the load benchmarks set the service's loads against.
 */
export function scratchCopyCommands(file: string, columns: number): string[] {
  if (!Number.isInteger(columns) || columns < 1) throw new Error('columns is a positive integer');
  if (/['\\\n]/.test(file)) throw new Error('the file name holds a quote, a backslash or a newline');
  const list = Array.from({ length: columns }, (_, i) => `c${i} text`).join(', ');
  return [`CREATE TEMP TABLE scratch_copy (${list})`, `\\copy scratch_copy FROM '${file}'`];
}
