import {
  embeddingSimilarity,
  evidenceWeight,
  scorePrediction,
  ScoringWeights,
  scoreOfDistance,
  taxonomicProximity,
} from '@svc/domain';

const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** The row's score: max(0, 1 - distance) (docs/prediction.md, "Score"). */
export function rowScore(r: Record<string, unknown>): number {
  return scoreOfDistance(Number(r['distance']));
}

/** The scoring signals of one stored prediction row. */
export function rowSignals(r: Record<string, unknown>) {
  return {
    embedding_similarity: embeddingSimilarity(Number(r['distance'])),
    identity_nw: num(r['identity_nw']),
    identity_sw: num(r['identity_sw']),
    evidence_weight: evidenceWeight((r['evidence_code'] as string | null) ?? null),
    taxonomic_proximity: taxonomicProximity(num(r['taxonomic_distance'])),
    neighbor_vote_fraction: num(r['neighbor_vote_fraction']),
    prediction_score: rowScore(r),
  };
}

export type RowScorer = (row: Record<string, unknown>) => number;

/** The scorer of a scoring config, or the row's own score without one (docs/prediction.md, "Score"). */
export function weightsScorer(weights: ScoringWeights | null): RowScorer {
  return weights === null ? rowScore : (r) => scorePrediction(weights, rowSignals(r));
}

export interface ScoredPair {
  protein: string;
  term: string;
  score: number;
}

/**
 * Folds rows into `best`, one score per (protein, term), the best of its rows; a pair keeps the
 * place of its first row, so folding chunk by chunk gives what folding every row at once gives.
 */
export function foldBestScores(
  best: Map<string, ScoredPair>,
  rows: Iterable<Record<string, unknown>>,
  score: RowScorer,
): void {
  for (const r of rows) {
    const value = score(r);
    if (!Number.isFinite(value)) continue;
    const protein = String(r['protein_accession']);
    const term = String(r['go_id']);
    const key = `${protein}\t${term}`;
    const known = best.get(key);
    if (known === undefined) best.set(key, { protein, term, score: value });
    else if (value > known.score) known.score = value;
  }
}

/** Evaluator input: one score per (protein, term), the best of its rows. */
export function bestScores(rows: readonly Record<string, unknown>[], score: RowScorer): ScoredPair[] {
  const best = new Map<string, ScoredPair>();
  foldBestScores(best, rows, score);
  return [...best.values()];
}
