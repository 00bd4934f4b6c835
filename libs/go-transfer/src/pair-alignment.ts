import { AlignmentFeatures, computeAlignmentFeatures } from '@svc/domain';

export interface PairTask {
  key: string;
  query: string;
  ref: string;
}

export type PairFeatures = AlignmentFeatures;

/** NW and SW features of one pair (BLOSUM62, gap open 10, extend 1: DESIGN.md §4). */
export function alignPair(task: PairTask): { key: string; features: PairFeatures } {
  return { key: task.key, features: computeAlignmentFeatures({ query: task.query, reference: task.ref }) };
}
