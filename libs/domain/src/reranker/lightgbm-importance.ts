import type { LightGbmModel } from './lightgbm-types';

export type LightGbmImportanceType = 'split' | 'gain';

/**
 * GBDT::FeatureImportance, recomputed from the trees: per feature, the number of splits on it
 * (`split`) or the sum of their gains (`gain`), counting only splits with a positive gain. LightGBM
 * holds split_gain as float32, so gains are rounded to float32 before summing, as its sums are.
 */
export function computeFeatureImportance(input: {
  model: LightGbmModel;
  type: LightGbmImportanceType;
  /** Count only the first n iterations; all of them when omitted or <= 0. */
  numIterations?: number;
}): number[] {
  const { model, type, numIterations } = input;
  const importance = new Array<number>(model.maxFeatureIdx + 1).fill(0);
  const treeCount =
    numIterations === undefined || numIterations <= 0
      ? model.trees.length
      : Math.min(Math.floor(numIterations) * model.numTreePerIteration, model.trees.length);
  for (const tree of model.trees.slice(0, treeCount)) {
    tree.splitFeature.forEach((feature, node) => {
      const gain = Math.fround(tree.splitGain[node] ?? 0);
      if (gain > 0) importance[feature] = (importance[feature] ?? 0) + (type === 'split' ? 1 : gain);
    });
  }
  return importance;
}
