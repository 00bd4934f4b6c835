import type { GafAspect } from './gaf-record';

/** GAF 2.2's default relation per aspect (column 4) for a predicted term. */
const RELATION: Record<GafAspect, string> = { F: 'enables', P: 'involved_in', C: 'located_in' };

/** NCBI taxon 32644, "unidentified": the taxon of a query whose species is not known. */
export const UNIDENTIFIED_TAXON = '32644';

const UNIPROT_ACCESSION =
  /^(?:[OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9](?:[A-Z][A-Z0-9]{2}[0-9]){1,2})(?:-\d+)?$/;

export interface PredictedGafTerm {
  protein: string;
  goId: string;
  aspect: GafAspect;
  /** The query's NCBI taxon id, or null when unknown. */
  taxonId: string | null;
  /** The donor protein (a UniProtKB accession), or null for a term from the prior alone. */
  donor: string | null;
  /** Prediction set id: the DB:Reference is `SVC:<id>`. */
  predictionSetId: string;
  /** YYYYMMDD. */
  date: string;
}

/**
 * One GAF 2.2 line (17 columns) for a predicted term: evidence IEA (an automatic transfer by sequence
 * similarity, ECO:0000501), the donor in With/From, the default relation of the aspect, assigned by
 * SVC. GAF has no score column: the file is cut at a minimum score and ordered best first, and the
 * scores are in the TSV, CAFA and JSON outputs of the same set (docs/prediction.md).
 */
export function predictionGafLine(term: PredictedGafTerm): string {
  const db = UNIPROT_ACCESSION.test(term.protein) ? 'UniProtKB' : 'SVC';
  const columns = [
    db,
    term.protein,
    term.protein,
    RELATION[term.aspect],
    term.goId,
    `SVC:${term.predictionSetId}`,
    'IEA',
    term.donor === null ? '' : `UniProtKB:${term.donor}`,
    term.aspect,
    '',
    '',
    'protein',
    `taxon:${term.taxonId !== null && /^\d+$/.test(term.taxonId) ? term.taxonId : UNIDENTIFIED_TAXON}`,
    term.date,
    'SVC',
    '',
    '',
  ];
  return columns.map((c) => c.replace(/[\t\r\n]+/g, ' ')).join('\t');
}

/** The header lines of a prediction GAF. */
export function predictionGafHeader(input: {
  predictionSetId: string;
  generated: string;
  minScore: number;
}): string[] {
  return [
    '!gaf-version: 2.2',
    `!generated-by: SVC protein function service`,
    `!date-generated: ${input.generated}`,
    `!prediction-set: ${input.predictionSetId}`,
    `!min-score: ${input.minScore}`,
    '! Predicted GO terms (IEA, transfer by sequence similarity), best score first per protein;',
    '! the scores are in predictions.tsv, predictions-cafa.tsv and predictions.json of the same set.',
  ];
}
