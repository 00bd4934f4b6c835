/** The signals a scoring config may weight, in a fixed order. */
export const SCORING_SIGNALS = [
  'embedding_similarity',
  'identity_nw',
  'identity_sw',
  'evidence_weight',
  'taxonomic_proximity',
  'neighbor_vote_fraction',
  'prediction_score',
] as const;
export type ScoringSignal = (typeof SCORING_SIGNALS)[number];
export type ScoringWeights = Record<ScoringSignal, number>;

/**
 * Validates a weights object: only the known signals, finite non-negative numbers, at least one
 * positive. Omitted signals weigh 0. Returns the full weights or the list of problems.
 */
export function normalizeWeights(raw: unknown): { weights: ScoringWeights } | { errors: string[] } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { errors: ['weights must be an object'] };
  const errors: string[] = [];
  const weights = Object.fromEntries(SCORING_SIGNALS.map((s) => [s, 0])) as ScoringWeights;
  for (const [key, value] of Object.entries(raw)) {
    if (!(SCORING_SIGNALS as readonly string[]).includes(key)) {
      errors.push(`weights.${key} is not a known signal (allowed: ${SCORING_SIGNALS.join(', ')})`);
      continue;
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      errors.push(`weights.${key} must be a non-negative number`);
      continue;
    }
    weights[key as ScoringSignal] = value;
  }
  if (errors.length === 0 && SCORING_SIGNALS.every((s) => weights[s] === 0))
    errors.push('weights must give at least one signal a positive weight');
  return errors.length > 0 ? { errors } : { weights };
}

/** Experimental codes (and their high-throughput forms) count fully; curated and computational less. */
const EVIDENCE_WEIGHTS: Readonly<Record<string, number>> = {
  EXP: 1,
  IDA: 1,
  IPI: 1,
  IMP: 1,
  IGI: 1,
  IEP: 1,
  HTP: 0.9,
  HDA: 0.9,
  HMP: 0.9,
  HGI: 0.9,
  HEP: 0.9,
  IC: 0.8,
  TAS: 0.8,
  ISS: 0.7,
  ISO: 0.7,
  ISA: 0.7,
  ISM: 0.7,
  IGC: 0.6,
  IBA: 0.7,
  IBD: 0.7,
  IKR: 0.6,
  IRD: 0.6,
  RCA: 0.6,
  NAS: 0.5,
  IEA: 0.4,
  ND: 0,
};

export function evidenceWeight(code: string | null): number {
  if (code === null) return 0;
  return EVIDENCE_WEIGHTS[code.toUpperCase()] ?? 0.5;
}

/** 1 for the same taxon, falling with the number of tree edges between the two; null when unknown. */
export function taxonomicProximity(distance: number | null): number | null {
  return distance === null ? null : 1 / (1 + distance);
}

/**
 * A prediction row's score: max(0, 1 - distance), the specification's one score (the CAFA download,
 * the evaluator's input, the `prediction_score` signal). An embedding row's distance is the cosine
 * distance of its neighbour; a homology-blend row's distance is 1 - its calibrated score.
 */
export function scoreOfDistance(distance: number): number {
  return Math.min(1, Math.max(0, 1 - distance));
}

/** The distance a row stores to carry a score in [0, 1]: 1 - score (the blend's distance). */
export function distanceOfScore(score: number): number {
  return 1 - Math.min(1, Math.max(0, score));
}

/** Cosine distance d in [0, 2] as a similarity in [0, 1] (DESIGN.md §3). */
export function embeddingSimilarity(distance: number): number {
  return Math.min(1, Math.max(0, 1 - distance / 2));
}

export type ScoringSignals = Record<ScoringSignal, number | null>;

/**
 * Weighted mean of the signals, each in [0, 1]. A signal that was not computed (null) leaves both
 * the numerator and the denominator, so a prediction without alignments is scored on what it has
 * instead of being pulled towards 0. With no usable signal the score is 0.
 */
export function scorePrediction(weights: ScoringWeights, signals: ScoringSignals): number {
  let sum = 0;
  let total = 0;
  for (const signal of SCORING_SIGNALS) {
    const w = weights[signal];
    const value = signals[signal];
    if (w === 0 || value === null || !Number.isFinite(value)) continue;
    sum += w * value;
    total += w;
  }
  return total === 0 ? 0 : sum / total;
}

/** Presets offered by POST /scoring/configs/presets. */
export const SCORING_PRESETS: readonly {
  name: string;
  description: string;
  weights: Partial<ScoringWeights>;
}[] = [
  {
    name: 'default',
    description:
      "The prediction's own score, max(0, 1 - distance): the calibrated homology blend for DIAMOND sets (their distance is 1 - that score), the cosine distance's for embedding sets",
    weights: { prediction_score: 1 },
  },
  {
    name: 'embedding_only',
    description: 'Embedding similarity alone (1 - d/2)',
    weights: { embedding_similarity: 1 },
  },
  {
    name: 'balanced',
    description: 'Similarity, votes, alignment identity and evidence',
    weights: {
      embedding_similarity: 0.4,
      neighbor_vote_fraction: 0.3,
      identity_nw: 0.1,
      identity_sw: 0.1,
      evidence_weight: 0.1,
    },
  },
  {
    name: 'alignment_weighted',
    description: 'Sequence identity first, embedding second',
    weights: { identity_sw: 0.4, identity_nw: 0.2, embedding_similarity: 0.3, taxonomic_proximity: 0.1 },
  },
  {
    name: 'vote_fraction',
    description: 'Share of neighbours carrying the term',
    weights: { neighbor_vote_fraction: 1 },
  },
];
