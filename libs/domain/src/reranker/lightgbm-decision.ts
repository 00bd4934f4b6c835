import type { LightGbmMissingType, LightGbmTree } from './lightgbm-types';

/**
 * LightGBM's kZeroThreshold is declared `const double kZeroThreshold = 1e-35f`: a float literal, so
 * its value is float32(1e-35) = 1.0000000180025095e-35. That exact value also appears as the
 * threshold of splits that separate zero from positive values.
 */
export const LIGHTGBM_ZERO_THRESHOLD = Math.fround(1e-35);

const CATEGORICAL_MASK = 1;
const DEFAULT_LEFT_MASK = 2;
const INT32_MAX = 2147483647;

/** The parts of a `decision_type` byte. */
export function decodeDecisionType(decisionType: number): {
  isCategorical: boolean;
  defaultLeft: boolean;
  missingType: LightGbmMissingType | 'unknown';
} {
  const missing = (decisionType >> 2) & 3;
  return {
    isCategorical: (decisionType & CATEGORICAL_MASK) !== 0,
    defaultLeft: (decisionType & DEFAULT_LEFT_MASK) !== 0,
    missingType: missing === 0 ? 'none' : missing === 1 ? 'zero' : missing === 2 ? 'nan' : 'unknown',
  };
}

function isZero(value: number): boolean {
  return value >= -LIGHTGBM_ZERO_THRESHOLD && value <= LIGHTGBM_ZERO_THRESHOLD;
}

/**
 * Tree::NumericalDecision. A NaN under a missing type other than NaN is first replaced by 0, so under
 * type None it is compared as 0 and under type Zero it becomes "missing"; a missing value follows the
 * default direction; everything else goes left when `value <= threshold`.
 */
export function numericalDecision(tree: LightGbmTree, node: number, featureValue: number): number {
  const decisionType = tree.decisionType[node] ?? 0;
  const missingType = (decisionType >> 2) & 3;
  let value = featureValue;
  if (Number.isNaN(value) && missingType !== 2) value = 0;
  if ((missingType === 1 && isZero(value)) || (missingType === 2 && Number.isNaN(value))) {
    return (decisionType & DEFAULT_LEFT_MASK) !== 0
      ? (tree.leftChild[node] ?? 0)
      : (tree.rightChild[node] ?? 0);
  }
  return value <= (tree.threshold[node] ?? 0) ? (tree.leftChild[node] ?? 0) : (tree.rightChild[node] ?? 0);
}

/**
 * Tree::CategoricalDecision. NaN goes right whatever the missing type. Otherwise the value is cast to
 * int as C++ does (truncation toward zero, so -0.5 becomes category 0); a negative category goes right;
 * the category goes left when its bit is set in the split's bitset (FindInBitset: word c / 32, bit
 * c % 32, a word past the bitset's end means not set). Values beyond int32 are undefined behaviour in
 * C++; on the x86 builds LightGBM ships they become INT32_MIN and go right, and so they do here.
 */
export function categoricalDecision(tree: LightGbmTree, node: number, featureValue: number): number {
  const right = tree.rightChild[node] ?? 0;
  if (Number.isNaN(featureValue)) return right;
  const category = Math.trunc(featureValue);
  if (category < 0 || category > INT32_MAX) return right;
  const catIdx = Math.trunc(tree.threshold[node] ?? 0);
  const start = tree.catBoundaries[catIdx] ?? 0;
  const words = (tree.catBoundaries[catIdx + 1] ?? 0) - start;
  const word = Math.floor(category / 32);
  if (word >= words) return right;
  const bits = tree.catThreshold[start + word] ?? 0;
  return ((bits >>> (category % 32)) & 1) === 1 ? (tree.leftChild[node] ?? 0) : right;
}

/**
 * Tree::GetLeaf: walk from the root until a leaf. As in LightGBM, the categorical bit is only honoured
 * when the tree has categorical splits (num_cat > 0); otherwise every node is numerical.
 */
export function findLeaf(tree: LightGbmTree, features: ArrayLike<number>): number {
  if (tree.numLeaves <= 1) return 0;
  const hasCategorical = tree.numCat > 0;
  let node = 0;
  while (node >= 0) {
    const value = features[tree.splitFeature[node] ?? 0] ?? NaN;
    node =
      hasCategorical && ((tree.decisionType[node] ?? 0) & CATEGORICAL_MASK) !== 0
        ? categoricalDecision(tree, node, value)
        : numericalDecision(tree, node, value);
  }
  return ~node;
}
