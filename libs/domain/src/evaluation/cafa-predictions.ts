import { CafaEvaluationError } from './cafa-errors';
import type { TermSetsByNamespace } from './cafa-inputs';
import type { CafaOntology } from './cafa-ontology';
import { forEachTokenLine, parsePythonFloat } from './reference-text';

/** One prediction; a structured source skips the text rules but not the filtering below. */
export interface CafaPrediction {
  protein: string;
  term: string;
  score: number;
}

/** Explicit (pre-propagation) scores of one protein in one namespace, and how many are non-zero. */
export interface ProteinScores {
  scores: Map<number, number>;
  nonZero: number;
}

export interface PredictionTable {
  /** Per namespace: protein -> explicit scores; only proteins with ground truth there. */
  byNamespace: Map<string, ProteinScores>[];
  /** Per namespace: at least one line was inserted (the namespace then appears in the output). */
  inserted: boolean[];
}

/**
 * Reads predictions with the reference's filters and quirks (EVALUATOR.md §2.4): a line is kept only
 * when its term resolves to a namespace in which the protein has ground truth; duplicates keep the
 * highest score; and with `maxTerms` a term is inserted only while the protein has at most `maxTerms`
 * non-zero entries, so up to maxTerms + 1 survive, in file order.
 *
 * Scores are stored as max(previous, score) over an implicit 0, as a zero-initialised score matrix
 * does, so a negative score ends up as an explicit 0.
 */
export function readPredictions(
  ontology: CafaOntology,
  groundTruth: TermSetsByNamespace,
  source: string | Iterable<CafaPrediction>,
  maxTerms: number | null,
): PredictionTable {
  const table: PredictionTable = {
    byNamespace: ontology.namespaces.map(() => new Map<string, ProteinScores>()),
    inserted: ontology.namespaces.map(() => false),
  };
  // Prediction files are grouped by protein, so the protein's entries are looked up once per run
  // of lines rather than once per line. null: no ground truth for the protein in that namespace.
  let cachedProtein: string | null = null;
  const cached: (ProteinScores | null | undefined)[] = ontology.namespaces.map(() => undefined);
  const entryFor = (protein: string, ns: number): ProteinScores | null => {
    if (protein !== cachedProtein) {
      cachedProtein = protein;
      cached.fill(undefined);
    }
    let entry = cached[ns];
    if (entry === undefined) {
      const proteins = table.byNamespace[ns];
      if (proteins === undefined || !groundTruth[ns]?.has(protein)) entry = null;
      else proteins.set(protein, (entry = proteins.get(protein) ?? { scores: new Map(), nonZero: 0 }));
      cached[ns] = entry;
    }
    return entry;
  };
  const insert = (protein: string, term: string, score: string | number, lineNumber: number | null): void => {
    const ref = ontology.resolve(term);
    if (ref === undefined) return;
    const entry = entryFor(protein, ref.namespace);
    if (entry === null) return;
    // float() runs only on kept lines, so a bad score on a filtered line is not an error.
    const value = checkedScore(score, lineNumber);
    for (const t of ref.terms) {
      if (maxTerms !== null && entry.nonZero > maxTerms) continue;
      const previous = entry.scores.get(t) ?? 0;
      const next = value > previous ? value : previous;
      if (previous === 0 && next !== 0) entry.nonZero++;
      entry.scores.set(t, next);
      table.inserted[ref.namespace] = true;
    }
  };

  if (typeof source !== 'string') {
    for (const p of source) insert(p.protein, p.term, p.score, null);
    return table;
  }
  forEachTokenLine(source, 3, (tokens, count, lineNumber) => {
    if (count >= 3) insert(tokens[0] ?? '', tokens[1] ?? '', tokens[2] ?? '', lineNumber);
  });
  return table;
}

function checkedScore(score: string | number, lineNumber: number | null): number {
  const value = typeof score === 'number' ? score : parsePythonFloat(score);
  // NaN would make every comparison false; the reference's handling of it is not specified, so it
  // is refused rather than guessed.
  if (value === null || Number.isNaN(value)) {
    const where = lineNumber === null ? '' : ` on line ${lineNumber}`;
    throw new CafaEvaluationError('invalid_score', `prediction score '${score}'${where} is not a number`);
  }
  return value;
}
