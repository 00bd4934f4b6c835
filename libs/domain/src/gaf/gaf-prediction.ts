import { formatGafHeader } from './gaf-format';
import type { GafAspect } from './gaf-record';

/** GAF 2.2's default relation per aspect (column 4) for a predicted term. */
const RELATION: Record<GafAspect, string> = { F: 'enables', P: 'involved_in', C: 'located_in' };

/**
 * NCBI taxon 32644, "unidentified": the taxon of a query whose FASTA header has no OX= and whose
 * upload named no taxon (column 13 is required, so it cannot stay empty).
 */
export const UNIDENTIFIED_TAXON = '32644';

/**
 * The service's short name: Assigned By (column 15) of every predicted line, the file's
 * `!generated-by`, and DB (column 1) of a query whose identifier is not a UniProtKB accession.
 */
export const PREDICTION_GAF_ASSIGNED_BY = 'SVC';

/**
 * DB:Reference (column 6) of a predicted line: the method, written like a GO_REF (prefix, seven
 * digits) under the service's own prefix, since no GO_REF describes this pipeline and a registered
 * GO_REF number would name another one. Declared in the file's header and in docs/prediction.md.
 */
export const PREDICTION_GAF_REFERENCES = {
  /** A term carried by at least one homologous reference protein (the donor is in With/From). */
  homology: 'SVC_REF:0000001',
  /** A term from the prior of the reference annotation set alone: no homolog carries it. */
  prior: 'SVC_REF:0000002',
  /**
   * The query's own annotation in the reference annotation set (self-transfer: the query is a
   * reference protein), with the evidence code recorded there: known, not predicted.
   */
  known: 'SVC_REF:0000003',
} as const;

/** GAF 2.2 evidence codes a known line may repeat; anything else is written as IEA. */
const GAF_EVIDENCE =
  /^(EXP|IDA|IPI|IMP|IGI|IEP|HTP|HDA|HMP|HGI|HEP|IBA|IBD|IKR|IRD|ISS|ISO|ISA|ISM|IGC|RCA|TAS|NAS|IC|ND|IEA)$/;

const UNIPROT_ACCESSION =
  /^(?:[OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9](?:[A-Z][A-Z0-9]{2}[0-9]){1,2})(?:-\d+)?$/;

export interface PredictedGafTerm {
  protein: string;
  /** The gene name of the query (its FASTA header's GN=), or null: column 3 then repeats the protein. */
  symbol?: string | null;
  goId: string;
  aspect: GafAspect;
  /** The query's NCBI taxon id (OX=, else the taxon given with the upload), or null when unknown. */
  taxonId: string | null;
  /** The donor protein (a UniProtKB accession), or null for a term from the prior alone. */
  donor: string | null;
  /** YYYYMMDD. */
  date: string;
  /** The query's own annotation (self-transfer): its recorded evidence code. */
  known?: { evidenceCode: string | null } | null;
}

/**
 * One GAF 2.2 line (17 columns) for a predicted term: evidence IEA (an automatic transfer by sequence
 * similarity, ECO:0000501), the method's reference (PREDICTION_GAF_REFERENCES), the donor in
 * With/From (empty for a term from the prior alone: no entity is its source, and GAF 2.2 does not
 * require With/From for IEA), the default relation of the aspect, assigned by SVC. The prediction set
 * is named in the header (`!prediction-set`), not in column 16, which only takes relational extensions.
 * GAF has no score column: the file is cut at a minimum score and ordered best first, and the scores
 * are in the CAFA and JSON outputs of the same set (docs/prediction.md).
 */
export function predictionGafLine(term: PredictedGafTerm): string {
  const db = UNIPROT_ACCESSION.test(term.protein) ? 'UniProtKB' : PREDICTION_GAF_ASSIGNED_BY;
  const symbol = term.symbol?.trim() || term.protein;
  const taxon = term.taxonId?.trim() ?? '';
  const known = term.known ?? null;
  const columns = [
    db,
    term.protein,
    symbol,
    RELATION[term.aspect],
    term.goId,
    known !== null
      ? PREDICTION_GAF_REFERENCES.known
      : term.donor === null
        ? PREDICTION_GAF_REFERENCES.prior
        : PREDICTION_GAF_REFERENCES.homology,
    known !== null ? (GAF_EVIDENCE.test(known.evidenceCode ?? '') ? known.evidenceCode! : 'IEA') : 'IEA',
    known !== null || term.donor === null ? '' : `UniProtKB:${term.donor}`,
    term.aspect,
    '',
    '',
    'protein',
    `taxon:${/^[1-9]\d*$/.test(taxon) ? taxon : UNIDENTIFIED_TAXON}`,
    term.date,
    PREDICTION_GAF_ASSIGNED_BY,
    '',
    '',
  ];
  return columns.map((c) => c.replace(/[\t\r\n]+/g, ' ')).join('\t');
}

/**
 * The header lines of a prediction GAF: the three GAF 2.2 requires (version first, generated-by,
 * date-generated as YYYY-MM-DD), the meaning of the service's prefixes, the set and the cut.
 */
export function predictionGafHeader(input: {
  predictionSetId: string;
  /** YYYY-MM-DD. */
  generated: string;
  minScore: number;
  /** What the predictions stand on (`provenanceHeader`): the reference, the search, the coverage. */
  provenance?: Record<string, string>;
}): string[] {
  const { homology, prior } = PREDICTION_GAF_REFERENCES;
  return [
    ...formatGafHeader({
      'generated-by': PREDICTION_GAF_ASSIGNED_BY,
      'date-generated': input.generated,
      'assigned-by': `${PREDICTION_GAF_ASSIGNED_BY} = the Protein Function Annotation Service (svc-protein-function); also DB of a query that is not a UniProtKB accession`,
      'homology-reference': `${homology} = GO terms transferred from homologous annotated reference proteins (IEA); With/From names the donor`,
      'prior-reference': `${prior} = GO terms from the term prior of the reference annotation set alone (IEA); no donor, With/From empty`,
      'known-reference': `${PREDICTION_GAF_REFERENCES.known} = the protein's own annotation in the reference annotation set (it is a reference protein), with the evidence code recorded there; known, not predicted`,
      'prediction-set': input.predictionSetId,
      'min-score': String(input.minScore),
      ...input.provenance,
    }),
    '! Predicted GO terms, best score first per protein; the scores are in predictions-cafa.tsv and',
    '! predictions.json of the same set. Taxon: OX= of the FASTA header, else the taxon given with',
    `! the upload, else taxon:${UNIDENTIFIED_TAXON} (NCBI "unidentified").`,
  ];
}
