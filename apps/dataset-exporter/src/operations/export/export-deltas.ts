import {
  computeHoldoutDelta,
  HoldoutAnnotation,
  HoldoutCategory,
  HoldoutDelta,
  PropagatedTruth,
  propagatedTruth,
} from '@svc/domain';
import { EmitFn, JobError } from '@svc/jobs';
import { Repositories } from '@svc/persistence';
import { ExportPlan, PairWork, Query } from './export-plan';

/** One snapshot pair's holdout split: its queries, their categories and the labels of their terms. */
export interface PairDelta {
  work: PairWork;
  /** `protein|aspect` -> NK, LK or PK. */
  categories: Map<string, HoldoutCategory>;
  truth: PropagatedTruth;
  /** The proteins that gained experimental terms and have an embedding, in accession order. */
  queries: Query[];
  delta: HoldoutDelta;
}

/**
 * The holdout split of every pair, before any transfer: it fixes the queries, so progress has a
 * total. A version that ends one pair starts the next, so each annotation set is read once.
 */
export async function computeDeltas(
  repos: Repositories,
  plan: ExportPlan,
  emit: EmitFn,
): Promise<PairDelta[]> {
  const annotationsOf = new Map<string, Promise<HoldoutAnnotation[]>>();
  const annotations = (setId: string): Promise<HoldoutAnnotation[]> => {
    let entry = annotationsOf.get(setId);
    if (entry === undefined) annotationsOf.set(setId, (entry = repos.annotations.holdoutAnnotations(setId)));
    return entry;
  };
  const deltas: PairDelta[] = [];
  for (const w of plan.work) {
    const delta = computeHoldoutDelta({
      old: await annotations(w.oldSetId),
      new: await annotations(w.newSetId),
      ontology: plan.graph,
    });
    const categories = new Map<string, HoldoutCategory>();
    const truthTerms: { protein: string; goId: string }[] = [];
    for (const category of ['NK', 'LK', 'PK'] as const)
      for (const t of delta.groundTruth[category]) {
        categories.set(`${t.protein}|${t.aspect}`, category);
        truthTerms.push({ protein: t.protein, goId: t.goId });
      }
    const proteins = [...new Set(truthTerms.map((t) => t.protein))].sort();
    const queries = proteins.map((p) => plan.embedded.get(p)).filter((q): q is Query => q !== undefined);
    deltas.push({ work: w, categories, truth: propagatedTruth(truthTerms, plan.graph), queries, delta });
    await emit('export_research_dataset.pair_planned', null, {
      pair: w.label,
      split: w.split,
      queries: queries.length,
      queries_without_embedding: proteins.length - queries.length,
      ...delta.stats,
    });
  }
  if (!deltas.some((d) => d.work.split === 'train' && d.queries.length > 0))
    throw new JobError(
      'empty_dataset',
      'no protein gained experimental annotations with an embedding in any train pair: nothing to train on',
    );
  return deltas;
}
