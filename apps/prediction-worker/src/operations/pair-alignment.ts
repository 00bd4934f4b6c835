import type { AlignmentResult } from '@svc/domain';

export interface PairTask {
  key: string;
  query: string;
  ref: string;
}

export interface PairFeatures {
  identity_nw: number;
  similarity_nw: number;
  alignment_score_nw: number;
  gaps_pct_nw: number;
  alignment_length_nw: number;
  identity_sw: number;
  similarity_sw: number;
  alignment_score_sw: number;
  gaps_pct_sw: number;
  alignment_length_sw: number;
  length_query: number;
  length_ref: number;
}

type Align = (a: string, b: string) => AlignmentResult;

/** NW and SW features of one pair (BLOSUM62, gap open 10, extend 1: DESIGN.md §4). */
export function alignmentFeatures(
  task: PairTask,
  global: Align,
  local: Align,
): { key: string; features: PairFeatures } {
  const nw = global(task.query, task.ref);
  const sw = local(task.query, task.ref);
  return {
    key: task.key,
    features: {
      identity_nw: nw.identity,
      similarity_nw: nw.similarity,
      alignment_score_nw: nw.score,
      gaps_pct_nw: nw.gapsPct,
      alignment_length_nw: nw.alignmentLength,
      identity_sw: sw.identity,
      similarity_sw: sw.similarity,
      alignment_score_sw: sw.score,
      gaps_pct_sw: sw.gapsPct,
      alignment_length_sw: sw.alignmentLength,
      length_query: task.query.length,
      length_ref: task.ref.length,
    },
  };
}
