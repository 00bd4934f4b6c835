/**
 * The parsed form of a LightGBM text model (`model.txt`, the output of `Booster.save_model`). Field
 * names follow the file's keys; arrays keep LightGBM's own layout (internal nodes indexed from 0,
 * leaves referred to by child values `~leaf`, that is `-(leaf + 1)`), so the evaluator can follow
 * LightGBM's `Tree::GetLeaf` step by step.
 */

/** How a numerical split treats missing values: bits 2-3 of `decision_type` (0 None, 1 Zero, 2 NaN). */
export type LightGbmMissingType = 'none' | 'zero' | 'nan';

/** The output transform of the objective named on the model's `objective=` line. */
export type LightGbmObjective =
  | { kind: 'identity'; name: string }
  | { kind: 'regression'; name: string; sqrt: boolean }
  | { kind: 'exponential'; name: string }
  | { kind: 'binary'; name: string; sigmoid: number }
  | { kind: 'cross_entropy'; name: string }
  | { kind: 'cross_entropy_lambda'; name: string }
  | { kind: 'multiclass'; name: string; numClass: number }
  | { kind: 'multiclassova'; name: string; numClass: number; sigmoid: number };

/** A linear model in each leaf (`linear_tree=true`); empty arrays for ordinary trees. */
export interface LightGbmLinearLeaves {
  leafConst: readonly number[];
  /** Per leaf, the original feature indices of its linear terms. */
  leafFeatures: readonly (readonly number[])[];
  /** Per leaf, the coefficients matching `leafFeatures`. */
  leafCoeff: readonly (readonly number[])[];
}

export interface LightGbmTree {
  numLeaves: number;
  /** Number of categorical splits; LightGBM only looks at the categorical bit when this is positive. */
  numCat: number;
  /** Per internal node (length numLeaves - 1). */
  splitFeature: readonly number[];
  splitGain: readonly number[];
  /** Numerical threshold, or for a categorical split the index of its bitset in `catBoundaries`. */
  threshold: readonly number[];
  /** Bit 0 categorical, bit 1 default-left, bits 2-3 missing type. */
  decisionType: readonly number[];
  /** Child of each internal node: `>= 0` an internal node, `< 0` the leaf `~child`. */
  leftChild: readonly number[];
  rightChild: readonly number[];
  internalValue: readonly number[];
  internalWeight: readonly number[];
  internalCount: readonly number[];
  /** Per leaf (length numLeaves). */
  leafValue: readonly number[];
  leafWeight: readonly number[];
  leafCount: readonly number[];
  /** Offsets into `catThreshold`, one more than `numCat`. */
  catBoundaries: readonly number[];
  /** 32-bit words; bit `c` of a split's words set means category `c` goes left. */
  catThreshold: readonly number[];
  isLinear: boolean;
  linear: LightGbmLinearLeaves;
  shrinkage: number;
}

export interface LightGbmFeatureImportance {
  feature: string;
  importance: number;
}

export interface LightGbmModel {
  /** `version=` of the header (`v2`, `v3`, `v4`); LightGBM itself does not require it. */
  version: string | null;
  numClass: number;
  numTreePerIteration: number;
  labelIndex: number;
  maxFeatureIdx: number;
  /** The `objective=` line verbatim, or null when the model was saved without one (custom objective). */
  objectiveText: string | null;
  objective: LightGbmObjective;
  /** Random-forest models average their trees instead of summing them. */
  averageOutput: boolean;
  featureNames: readonly string[];
  featureInfos: readonly string[];
  monotoneConstraints: readonly number[] | null;
  trees: readonly LightGbmTree[];
  /** The `feature_importances:` section as written (split counts, most important first). */
  featureImportances: readonly LightGbmFeatureImportance[];
  /** The `parameters:` section, `[key: value]` lines as a record. */
  parameters: Readonly<Record<string, string>>;
  /** The JSON text after `pandas_categorical:`, when present. */
  pandasCategorical: string | null;
}

/** A model text that LightGBM would refuse to load, or one this evaluator cannot run safely. */
export class LightGbmModelError extends Error {
  constructor(
    message: string,
    readonly line: number | null = null,
  ) {
    super(line === null ? message : `line ${line}: ${message}`);
    this.name = 'LightGbmModelError';
  }
}
