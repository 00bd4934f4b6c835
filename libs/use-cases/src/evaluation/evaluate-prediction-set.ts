import {
  CafaEvaluation,
  CafaOntology,
  CafaPrediction,
  createCafaEvaluator,
  ScoringWeights,
} from '@svc/domain';
import type {
  EvaluationRepository,
  GroundTruthRow,
  OntologyRepository,
  PredictionSetRepository,
} from '@svc/persistence';
import { foldBestScores, RowScorer, ScoredPair, weightsScorer } from './scored-predictions';

export const EVALUATION_CATEGORIES = ['NK', 'LK', 'PK'] as const;
export type EvaluationCategory = (typeof EVALUATION_CATEGORIES)[number];

const ASPECT_CODE: Record<string, string> = {
  biological_process: 'BPO',
  molecular_function: 'MFO',
  cellular_component: 'CCO',
};

/** What the evaluation reads, narrowed to the calls it makes (a unit test hands it plain objects). */
export interface EvaluationReads {
  evaluations: Pick<EvaluationRepository, 'groundTruth'>;
  ontologies: Pick<OntologyRepository, 'oboDocument'>;
  predictionSets: Pick<PredictionSetRepository, 'streamRows'>;
}

export interface CategoryEvaluation {
  category: EvaluationCategory;
  evaluation: CafaEvaluation;
  truth: GroundTruthRow[];
  predictions: CafaPrediction[];
  known: { protein: string; term: string }[] | null;
}

/** The persisted keys of each aspect: the headline `_w` keys and the unweighted history. */
export function persistedMetrics(evaluation: CafaEvaluation): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [namespace, r] of Object.entries(evaluation.namespaces)) {
    const fmax = r.best.fmax;
    out[ASPECT_CODE[namespace] ?? namespace] = {
      ...(r.f_micro_w !== undefined
        ? {
            f_micro_w: r.f_micro_w,
            fmax_w: r.fmax_w,
            precision_w: r.precision_w,
            recall_w: r.recall_w,
            coverage_w: r.coverage_w,
            auprc_w: r.auprc_w,
          }
        : {}),
      f_micro: r.f_micro,
      auprc: r.auprc,
      tau: r.tau,
      fmax: r.fmax,
      precision: fmax.precision,
      recall: fmax.recall,
      threshold: fmax.tau,
      coverage: fmax.coverage,
      n: fmax.n,
      smin: r.best.smin.value,
    };
  }
  return out;
}

/**
 * Evaluates a prediction set on an evaluation set's delta proteins, category by category (NK, LK,
 * and PK with its known terms), with the CAFA recipe of the service (fill, cafa, no orphans).
 * Categories without ground truth are skipped. Evaluator errors propagate as CafaEvaluationError.
 */
export async function evaluatePredictionSet(input: {
  repos: EvaluationReads;
  evaluationSetId: string;
  ontologySnapshotId: string;
  predictionSetId: string;
  weights: ScoringWeights | null;
  /** Scores a row for a category (re-rankers); null falls back to the weights. */
  scorerFor?: (category: EvaluationCategory) => RowScorer | null;
  ia: string | null;
  toi: string | null;
  thStep: number;
  maxTerms: number | null;
  onCategory?: (result: CategoryEvaluation) => Promise<void>;
}): Promise<Record<string, Record<string, Record<string, unknown>>>> {
  const { evaluations, ontologies, predictionSets } = input.repos;
  const doc = await ontologies.oboDocument(input.ontologySnapshotId);
  const ontology = new CafaOntology(
    doc.terms.map((t) => ({
      id: t.id,
      namespace: t.namespace,
      isObsolete: t.isObsolete,
      altIds: t.altIds,
      parents: t.parents.filter((p) => p.relation === 'is_a' || p.relation === 'part_of').map((p) => p.id),
    })),
  );
  const fallback = weightsScorer(input.weights);
  const known = (await evaluations.groundTruth(input.evaluationSetId, 'KNOWN')).map((r) => ({
    protein: r.protein_accession,
    term: r.go_id,
  }));
  // The rows are streamed once; only the rows of a category's proteins are kept, as their best scores.
  const categories: {
    category: EvaluationCategory;
    truth: GroundTruthRow[];
    proteins: Set<string>;
    scorer: RowScorer;
    best: Map<string, ScoredPair>;
  }[] = [];
  for (const category of EVALUATION_CATEGORIES) {
    const truth = await evaluations.groundTruth(input.evaluationSetId, category);
    if (truth.length === 0) continue;
    categories.push({
      category,
      truth,
      proteins: new Set(truth.map((t) => t.protein_accession)),
      scorer: input.scorerFor?.(category) ?? fallback,
      best: new Map(),
    });
  }
  // Without a scoring config or re-rankers a row is scored by its own score: only that is read.
  const columns = input.weights === null && input.scorerFor === undefined ? 'score' : 'export';
  const rows = predictionSets.streamRows(input.predictionSetId, {}, 5000, columns, true);
  for await (const chunk of rows) {
    for (const entry of categories) {
      foldBestScores(
        entry.best,
        chunk.filter((r) => entry.proteins.has(String(r['protein_accession']))),
        entry.scorer,
      );
    }
  }
  const metrics: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const { category, truth, proteins, best } of categories) {
    const categoryPredictions = [...best.values()];
    best.clear();
    const categoryKnown = category === 'PK' ? known.filter((k) => proteins.has(k.protein)) : null;
    const evaluation = createCafaEvaluator({
      ontology,
      groundTruth: truth.map((t) => ({ protein: t.protein_accession, term: t.go_id })),
      known: categoryKnown,
      ia: input.ia,
      toi: input.toi,
      options: { thStep: input.thStep, maxTerms: input.maxTerms },
    }).evaluate(categoryPredictions);
    metrics[category] = persistedMetrics(evaluation);
    await input.onCategory?.({
      category,
      evaluation,
      truth,
      predictions: categoryPredictions,
      known: categoryKnown,
    });
  }
  return metrics;
}
