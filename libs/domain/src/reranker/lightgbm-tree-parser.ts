import { parseDoubleArray, parseDoubleToken, parseIntArray, parseIntToken } from './lightgbm-numbers';
import { LightGbmModelError, type LightGbmLinearLeaves, type LightGbmTree } from './lightgbm-types';

/** One `key=value` line of a `Tree=N` block, with its 1-based line number for error messages. */
export interface ModelLine {
  text: string;
  line: number;
}

const NO_LINEAR: LightGbmLinearLeaves = { leafConst: [], leafFeatures: [], leafCoeff: [] };
const UINT32_MAX = 0xffffffff;

/**
 * Parses the lines of one `Tree=N` block (everything up to the blank line that ends it). Field rules
 * follow LightGBM's `Tree(const char*, size_t*)`: num_leaves, num_cat and leaf_value are required; a
 * single-leaf tree needs nothing else; the split arrays are required otherwise, and the statistics
 * (gains, counts, weights, internal values) default to zeros. On top of that the structure is checked
 * (indices in range, every node reached exactly once), because an uploaded booster with a cycle or a
 * dangling child would otherwise hang or crash the evaluator.
 */
export function parseTreeBlock(input: {
  lines: readonly ModelLine[];
  treeIndex: number;
  maxFeatureIdx: number;
  headerLine: number;
}): LightGbmTree {
  const { treeIndex, maxFeatureIdx, headerLine } = input;
  const fields = new Map<string, ModelLine>();
  for (const entry of input.lines) {
    const eq = entry.text.indexOf('=');
    if (eq < 0) throw new LightGbmModelError(`Tree=${treeIndex}: expected key=value`, entry.line);
    fields.set(entry.text.slice(0, eq), { text: entry.text.slice(eq + 1), line: entry.line });
  }
  const what = (key: string) => `Tree=${treeIndex} ${key}`;
  const required = (key: string): ModelLine => {
    const field = fields.get(key);
    if (field === undefined) throw new LightGbmModelError(`Tree=${treeIndex} has no ${key}`, headerLine);
    return field;
  };
  const ints = (key: string, n: number | null) => {
    const f = required(key);
    return parseIntArray(f.text, n, what(key), f.line);
  };
  const doubles = (key: string, n: number | null) => {
    const f = required(key);
    return parseDoubleArray(f.text, n, what(key), f.line);
  };
  const optionalInts = (key: string, n: number) => (fields.has(key) ? ints(key, n) : zeros(n));
  const optionalDoubles = (key: string, n: number) => (fields.has(key) ? doubles(key, n) : zeros(n));

  const numLeavesField = required('num_leaves');
  const numLeaves = parseIntToken(numLeavesField.text, what('num_leaves'), numLeavesField.line);
  if (numLeaves < 1)
    throw new LightGbmModelError(`${what('num_leaves')} must be at least 1`, numLeavesField.line);
  const numCatField = required('num_cat');
  const numCat = parseIntToken(numCatField.text, what('num_cat'), numCatField.line);
  if (numCat < 0) throw new LightGbmModelError(`${what('num_cat')} must not be negative`, numCatField.line);
  const leafValue = doubles('leaf_value', numLeaves);
  const shrinkageField = fields.get('shrinkage');
  const shrinkage =
    shrinkageField === undefined
      ? 1
      : parseDoubleToken(shrinkageField.text, what('shrinkage'), shrinkageField.line);
  const isLinearField = fields.get('is_linear');
  const isLinear =
    isLinearField !== undefined &&
    parseIntToken(isLinearField.text, what('is_linear'), isLinearField.line) !== 0;

  const nodes = numLeaves - 1;
  if (numLeaves === 1 && !isLinear) {
    // LightGBM stops reading a constant tree here and ignores whatever else the block holds.
    return constantTree(leafValue, shrinkage);
  }
  const tree: LightGbmTree = {
    numLeaves,
    numCat,
    splitFeature: ints('split_feature', nodes),
    splitGain: optionalDoubles('split_gain', nodes),
    threshold: doubles('threshold', nodes),
    decisionType: optionalInts('decision_type', nodes),
    leftChild: ints('left_child', nodes),
    rightChild: ints('right_child', nodes),
    internalValue: optionalDoubles('internal_value', nodes),
    internalWeight: optionalDoubles('internal_weight', nodes),
    internalCount: optionalInts('internal_count', nodes),
    leafValue,
    leafWeight: optionalDoubles('leaf_weight', numLeaves),
    leafCount: optionalInts('leaf_count', numLeaves),
    catBoundaries: numCat > 0 ? ints('cat_boundaries', numCat + 1) : [],
    catThreshold: [],
    isLinear,
    linear: isLinear ? parseLinearLeaves(fields, numLeaves, what) : NO_LINEAR,
    shrinkage,
  };
  if (numCat > 0) {
    const words = tree.catBoundaries[numCat] ?? 0;
    tree.catThreshold = ints('cat_threshold', words);
  }
  checkTree(tree, { treeIndex, maxFeatureIdx, line: headerLine });
  return tree;
}

function zeros(n: number): number[] {
  return new Array<number>(n).fill(0);
}

function constantTree(leafValue: readonly number[], shrinkage: number): LightGbmTree {
  return {
    numLeaves: 1,
    numCat: 0,
    splitFeature: [],
    splitGain: [],
    threshold: [],
    decisionType: [],
    leftChild: [],
    rightChild: [],
    internalValue: [],
    internalWeight: [],
    internalCount: [],
    leafValue,
    leafWeight: [0],
    leafCount: [0],
    catBoundaries: [],
    catThreshold: [],
    isLinear: false,
    linear: NO_LINEAR,
    shrinkage,
  };
}

/**
 * leaf_const, num_features, leaf_features and leaf_coeff; the last two are flat lists cut per leaf by
 * num_features. Without leaf_features every leaf keeps only its constant, as in LightGBM; without
 * leaf_coeff too (LightGBM would read past an empty array there).
 */
function parseLinearLeaves(
  fields: ReadonlyMap<string, ModelLine>,
  numLeaves: number,
  what: (key: string) => string,
): LightGbmLinearLeaves {
  const constField = fields.get('leaf_const');
  const leafConst = constField
    ? parseDoubleArray(constField.text, numLeaves, what('leaf_const'), constField.line)
    : zeros(numLeaves);
  const countField = fields.get('num_features');
  const counts = countField
    ? parseIntArray(countField.text, numLeaves, what('num_features'), countField.line)
    : [];
  if (counts.some((n) => n < 0)) {
    throw new LightGbmModelError(`${what('num_features')} must not be negative`, countField?.line ?? null);
  }
  const total = counts.reduce((sum, n) => sum + n, 0);
  const featureField = fields.get('leaf_features');
  const coeffField = fields.get('leaf_coeff');
  const flatFeatures = featureField
    ? parseIntArray(featureField.text, total, what('leaf_features'), featureField.line)
    : null;
  const flatCoeff = coeffField
    ? parseDoubleArray(coeffField.text, total, what('leaf_coeff'), coeffField.line)
    : null;
  const leafFeatures: number[][] = [];
  const leafCoeff: number[][] = [];
  let offset = 0;
  for (let leaf = 0; leaf < numLeaves; leaf++) {
    const n = counts[leaf] ?? 0;
    const hasTerms = flatFeatures !== null && flatCoeff !== null;
    leafFeatures.push(hasTerms ? flatFeatures.slice(offset, offset + n) : []);
    leafCoeff.push(hasTerms ? flatCoeff.slice(offset, offset + n) : []);
    offset += n;
  }
  return { leafConst, leafFeatures, leafCoeff };
}

function checkTree(
  tree: LightGbmTree,
  where: { treeIndex: number; maxFeatureIdx: number; line: number },
): void {
  const fail = (message: string): never => {
    throw new LightGbmModelError(`Tree=${where.treeIndex}: ${message}`, where.line);
  };
  const inFeatureRange = (f: number) => f >= 0 && f <= where.maxFeatureIdx;
  tree.splitFeature.forEach((f, node) => {
    if (!inFeatureRange(f)) fail(`node ${node} splits on feature ${f}, beyond max_feature_idx`);
  });
  tree.decisionType.forEach((d, node) => {
    if (d < -128 || d > 127) fail(`node ${node} has decision_type ${d}, not an int8`);
  });
  tree.linear.leafFeatures.forEach((features, leaf) => {
    if (!features.every(inFeatureRange)) fail(`leaf ${leaf} has a linear term on an unknown feature`);
  });
  checkCategorical(tree, fail);
  checkReachability(tree, fail);
}

function checkCategorical(tree: LightGbmTree, fail: (message: string) => never): void {
  if (tree.numCat === 0) return;
  let previous = 0;
  for (const boundary of tree.catBoundaries) {
    if (boundary < previous) fail('cat_boundaries must start at 0 and never decrease');
    previous = boundary;
  }
  if (tree.catThreshold.some((word) => word < 0 || word > UINT32_MAX))
    fail('cat_threshold words must be uint32');
  tree.decisionType.forEach((d, node) => {
    if ((d & 1) === 0) return;
    const catIdx = Math.trunc(tree.threshold[node] ?? -1);
    if (!(catIdx >= 0 && catIdx < tree.numCat)) fail(`categorical node ${node} points at bitset ${catIdx}`);
  });
}

/** Every internal node and every leaf is reached exactly once from the root: a tree, not a graph. */
function checkReachability(tree: LightGbmTree, fail: (message: string) => never): void {
  const nodes = tree.numLeaves - 1;
  if (nodes === 0) return;
  const seenNodes = new Uint8Array(nodes);
  const seenLeaves = new Uint8Array(tree.numLeaves);
  const stack = [0];
  while (stack.length > 0) {
    const node = stack.pop() ?? 0;
    if (seenNodes[node] === 1) fail(`node ${node} is reached twice`);
    seenNodes[node] = 1;
    for (const child of [tree.leftChild[node] ?? 0, tree.rightChild[node] ?? 0]) {
      if (child >= 0) {
        if (child >= nodes) fail(`node ${node} has child ${child}, beyond ${nodes} internal nodes`);
        stack.push(child);
      } else {
        const leaf = ~child;
        if (leaf >= tree.numLeaves) fail(`node ${node} has leaf ${leaf}, beyond num_leaves`);
        if (seenLeaves[leaf] === 1) fail(`leaf ${leaf} is reached twice`);
        seenLeaves[leaf] = 1;
      }
    }
  }
  if (seenNodes.includes(0) || seenLeaves.includes(0))
    fail('some nodes or leaves are unreachable from the root');
}
