import { findLeaf } from './lightgbm-decision';
import { convertLightGbmOutput } from './lightgbm-objective';
import type { LightGbmModel, LightGbmTree } from './lightgbm-types';

export interface LightGbmPredictInput {
  model: LightGbmModel;
  /** One value per model feature, in `feature_names` order; NaN marks a missing value. */
  features: ArrayLike<number>;
  /** Use only the first n iterations, like LightGBM's `num_iteration`; all of them when omitted or <= 0. */
  numIterations?: number;
}

/** Number of boosting iterations in the model (trees / trees per iteration). */
export function lightGbmIterations(model: LightGbmModel): number {
  return model.trees.length / model.numTreePerIteration;
}

/**
 * Tree::Predict: the value of the leaf the row falls in. A linear tree adds its leaf's linear model
 * (leaf_const + sum of coefficient * feature), falling back to the plain leaf value when any of the
 * leaf's features is NaN, as LightGBM does.
 */
export function predictTree(tree: LightGbmTree, features: ArrayLike<number>): number {
  const leaf = findLeaf(tree, features);
  if (!tree.isLinear) return tree.leafValue[leaf] ?? 0;
  const leafFeatures = tree.linear.leafFeatures[leaf] ?? [];
  const coefficients = tree.linear.leafCoeff[leaf] ?? [];
  let output = tree.linear.leafConst[leaf] ?? 0;
  for (let i = 0; i < leafFeatures.length; i++) {
    const value = features[leafFeatures[i] ?? 0] ?? NaN;
    if (Number.isNaN(value)) return tree.leafValue[leaf] ?? 0;
    output += (coefficients[i] ?? 0) * value;
  }
  return output;
}

function checkInput(input: LightGbmPredictInput): number {
  const { model, features, numIterations } = input;
  const expected = model.maxFeatureIdx + 1;
  if (features.length !== expected) {
    // LightGBM refuses a row of the wrong width too (unless its shape check is disabled).
    throw new RangeError(`the model has ${expected} features, the row has ${features.length}`);
  }
  const total = lightGbmIterations(model);
  return numIterations === undefined || numIterations <= 0
    ? total
    : Math.min(Math.floor(numIterations), total);
}

function sumTrees(model: LightGbmModel, features: ArrayLike<number>, iterations: number): number[] {
  const perIteration = model.numTreePerIteration;
  const output = new Array<number>(perIteration).fill(0);
  // Same order of additions as GBDT::PredictRaw (iteration by iteration), so sums round identically.
  for (let iteration = 0; iteration < iterations; iteration++) {
    for (let k = 0; k < perIteration; k++) {
      const tree = model.trees[iteration * perIteration + k];
      if (tree !== undefined) output[k] = (output[k] ?? 0) + predictTree(tree, features);
    }
  }
  return output;
}

/**
 * GBDT::PredictRaw: per output (one per tree of an iteration), the sum of the trees' values. The
 * boost_from_average start score is already folded into the first tree's leaves, so there is no
 * separate init score. Random-forest models are summed here as well, as LightGBM's raw score is.
 */
export function predictRaw(input: LightGbmPredictInput): number[] {
  const iterations = checkInput(input);
  return sumTrees(input.model, input.features, iterations);
}

/**
 * GBDT::Predict: the raw scores, divided by the number of iterations for random-forest models
 * (`average_output`), then passed through the objective's transform (sigmoid for binary, softmax for
 * multiclass, identity for regression, ...).
 */
export function predict(input: LightGbmPredictInput): number[] {
  const iterations = checkInput(input);
  const raw = sumTrees(input.model, input.features, iterations);
  const scores = input.model.averageOutput && iterations > 0 ? raw.map((x) => x / iterations) : raw;
  return convertLightGbmOutput(input.model.objective, scores);
}

/** GBDT::PredictLeafIndex: the leaf each tree sends the row to, tree by tree. */
export function predictLeafIndices(input: LightGbmPredictInput): number[] {
  const iterations = checkInput(input);
  const trees = input.model.trees.slice(0, iterations * input.model.numTreePerIteration);
  return trees.map((tree) => findLeaf(tree, input.features));
}
