import { DataSource } from 'typeorm';
import {
  embeddingSimilarity,
  evidenceWeight,
  scorePrediction,
  ScoringWeights,
  taxonomicProximity,
} from '@svc/domain';
import { PredictionSetRepository } from './prediction-set.repository';

const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** The six scoring signals of one stored prediction row. */
export function rowSignals(r: Record<string, unknown>) {
  return {
    embedding_similarity: embeddingSimilarity(Number(r['distance'])),
    identity_nw: num(r['identity_nw']),
    identity_sw: num(r['identity_sw']),
    evidence_weight: evidenceWeight((r['evidence_code'] as string | null) ?? null),
    taxonomic_proximity: taxonomicProximity(num(r['taxonomic_distance'])),
    neighbor_vote_fraction: num(r['neighbor_vote_fraction']),
  };
}

/**
 * A prediction set as evaluator input: one score per (protein, term), the best of its rows, scored
 * by the weights when given and by 1 - d/2 otherwise (DESIGN.md §3).
 */
export async function scoredPredictions(
  db: DataSource,
  predictionSetId: string,
  weights: ScoringWeights | null,
): Promise<{ protein: string; term: string; score: number }[]> {
  const best = new Map<string, { protein: string; term: string; score: number }>();
  for await (const chunk of new PredictionSetRepository(db).streamRows(predictionSetId, {}, 5000)) {
    for (const r of chunk) {
      const score =
        weights === null
          ? embeddingSimilarity(Number(r['distance']))
          : scorePrediction(weights, rowSignals(r));
      const protein = String(r['protein_accession']);
      const term = String(r['go_id']);
      const key = `${protein}\t${term}`;
      const known = best.get(key);
      if (known === undefined || score > known.score) best.set(key, { protein, term, score });
    }
  }
  return [...best.values()];
}
