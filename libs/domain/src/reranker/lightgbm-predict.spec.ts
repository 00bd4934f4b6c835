import { computeFeatureImportance } from './lightgbm-importance';
import { parseLightGbmModel } from './lightgbm-model-parser';
import { lightGbmIterations, predict, predictLeafIndices, predictRaw } from './lightgbm-predict';
import { modelText, type TreeSpec } from '../../testing/reranker/hand-written-models';

// A boost_from_average start as LightGBM writes it (a single-leaf first tree), then a stump on f0.
const start: TreeSpec = { leafValue: [0.5] };
const stump: TreeSpec = {
  splitFeature: [0],
  threshold: [0],
  decisionType: [2],
  leftChild: [-1],
  rightChild: [-2],
  leafValue: [-1.5, 1.25],
};
const twoTrees = (objective: string | null) =>
  parseLightGbmModel(modelText({ numFeatures: 1, objective, trees: [start, stump] }));

describe('predict and predictRaw', () => {
  // Raw score by hand: 0.5 + (-1.5) = -1 when f0 <= 0, 0.5 + 1.25 = 1.75 otherwise.
  it.each<{ objective: string | null; x: number; raw: number; expected: number }>([
    { objective: 'binary sigmoid:1', x: -3, raw: -1, expected: 1 / (1 + Math.exp(1)) },
    { objective: 'binary sigmoid:1', x: 3, raw: 1.75, expected: 1 / (1 + Math.exp(-1.75)) },
    { objective: 'binary sigmoid:0.5', x: 3, raw: 1.75, expected: 1 / (1 + Math.exp(-0.875)) },
    { objective: 'regression', x: 3, raw: 1.75, expected: 1.75 },
    { objective: 'regression sqrt', x: -3, raw: -1, expected: -1 },
    { objective: 'regression sqrt', x: 3, raw: 1.75, expected: 3.0625 },
    { objective: 'cross_entropy', x: -3, raw: -1, expected: 1 / (1 + Math.E) },
    { objective: 'xentlambda', x: 3, raw: 1.75, expected: Math.log(1 + Math.exp(1.75)) },
    { objective: 'poisson', x: -3, raw: -1, expected: 1 / Math.E },
    { objective: 'lambdarank', x: 3, raw: 1.75, expected: 1.75 },
    { objective: null, x: -3, raw: -1, expected: -1 },
  ])('$objective at f0=$x', ({ objective, x, raw, expected }) => {
    const model = twoTrees(objective);
    expect(predictRaw({ model, features: [x] })).toEqual([raw]);
    const [p] = predict({ model, features: [x] });
    expect(p).toBeCloseTo(expected, 15);
  });

  it('reads single-leaf trees (empty split arrays) and sums them', () => {
    const model = parseLightGbmModel(
      modelText({
        numFeatures: 2,
        objective: 'regression',
        trees: [{ leafValue: [0.25] }, { leafValue: [-2] }],
      }),
    );
    expect(model.trees.map((tree) => tree.numLeaves)).toEqual([1, 1]);
    expect(predictRaw({ model, features: [NaN, 4] })).toEqual([-1.75]);
    expect(predictLeafIndices({ model, features: [NaN, 4] })).toEqual([0, 0]);
  });

  it('stops after numIterations, like num_iteration', () => {
    const model = twoTrees('regression');
    expect(predictRaw({ model, features: [3], numIterations: 1 })).toEqual([0.5]);
    expect(predictRaw({ model, features: [3], numIterations: 0 })).toEqual([1.75]);
    expect(predictRaw({ model, features: [3], numIterations: 99 })).toEqual([1.75]);
  });

  it('refuses a row of the wrong width', () => {
    const model = twoTrees('regression');
    expect(() => predictRaw({ model, features: [1, 2] })).toThrow(RangeError);
    expect(() => predict({ model, features: [] })).toThrow(RangeError);
  });

  it('averages a random forest (average_output) before the transform, but not in the raw score', () => {
    const model = parseLightGbmModel(
      modelText({
        numFeatures: 1,
        objective: 'binary sigmoid:1',
        averageOutput: true,
        trees: [start, stump],
      }),
    );
    expect(lightGbmIterations(model)).toBe(2);
    expect(predictRaw({ model, features: [3] })).toEqual([1.75]);
    expect(predict({ model, features: [3] })[0]).toBeCloseTo(1 / (1 + Math.exp(-0.875)), 15);
  });
});

describe('multiclass', () => {
  // Two iterations of three trees, stored class by class within each iteration.
  const leaf = (value: number): TreeSpec => ({ leafValue: [value] });
  const split = (left: number, right: number): TreeSpec => ({ ...stump, leafValue: [left, right] });
  const trees = [leaf(0.1), leaf(0.2), leaf(0.3), split(1, -1), split(0, 0), split(-1, 1)];
  const model = parseLightGbmModel(
    modelText({ numFeatures: 1, objective: 'multiclass num_class:3', numClass: 3, trees }),
  );

  it.each([
    { x: -1, raw: [1.1, 0.2, -0.7] },
    { x: 1, raw: [0.1 - 1, 0.2, 0.3 + 1] },
  ])('f0=$x', ({ x, raw }) => {
    const out = predictRaw({ model, features: [x] });
    out.forEach((value, k) => expect(value).toBeCloseTo(raw[k] ?? NaN, 15));
    const exps = raw.map((r) => Math.exp(r));
    const total = exps.reduce((a, b) => a + b, 0);
    predict({ model, features: [x] }).forEach((p, k) => expect(p).toBeCloseTo((exps[k] ?? NaN) / total, 15));
  });

  it('refuses an objective whose class count differs from the trees per iteration', () => {
    const text = modelText({ numFeatures: 1, objective: 'multiclass num_class:2', numClass: 3, trees });
    expect(() => parseLightGbmModel(text)).toThrow(/3 trees per iteration/);
  });
});

describe('linear trees (is_linear=1)', () => {
  // Leaf 0 (f0 <= 0): 1 + 2 * f1. Leaf 1: -1 + 0.5 * f1 - f2. A NaN in a leaf's own features falls
  // back to its plain leaf value (0.25, 0.75).
  const model = parseLightGbmModel(
    modelText({
      numFeatures: 3,
      objective: 'regression',
      trees: [
        {
          ...stump,
          leafValue: [0.25, 0.75],
          extra: {
            is_linear: '1',
            leaf_const: '1 -1',
            num_features: '1 2',
            leaf_features: '1 1 2',
            leaf_coeff: '2 0.5 -1',
          },
        },
        {
          leafValue: [0],
          extra: {
            is_linear: '1',
            leaf_const: '0.5',
            num_features: '1',
            leaf_features: '0',
            leaf_coeff: '3',
          },
        },
      ],
    }),
  );

  it.each([
    { name: 'leaf 0 model', f: [-1, 3, 0], expected: 7 + (0.5 - 3) },
    { name: 'leaf 1 model', f: [1, 3, 4], expected: -3.5 + (0.5 + 3) },
    { name: 'leaf 1 with a NaN term falls back to its leaf value', f: [1, NaN, 4], expected: 0.75 + 3.5 },
    { name: 'leaf 0 ignores features it has no term for', f: [-1, 3, NaN], expected: 7 + (0.5 - 3) },
    { name: 'a NaN split value goes to leaf 0 (compared as 0)', f: [NaN, 2, 0], expected: 5 + 0 },
  ])('$name', ({ f, expected }) => {
    // The second tree is a single-leaf linear tree, 0.5 + 3 * f0 (or 0 when f0 is NaN).
    expect(predictRaw({ model, features: f })[0]).toBeCloseTo(expected, 14);
  });

  it('uses only the constants when the file has no linear terms', () => {
    const constantsOnly = parseLightGbmModel(
      modelText({
        numFeatures: 3,
        objective: 'regression',
        trees: [{ ...stump, extra: { is_linear: '1', leaf_const: '0.5 -0.5', num_features: '0 0' } }],
      }),
    );
    expect(predictRaw({ model: constantsOnly, features: [1, 2, 3] })).toEqual([-0.5]);
  });

  it('keeps the per-leaf terms', () => {
    expect(model.trees[0]?.linear).toEqual({
      leafConst: [1, -1],
      leafFeatures: [[1], [1, 2]],
      leafCoeff: [[2], [0.5, -1]],
    });
  });
});

describe('computeFeatureImportance', () => {
  // f0 split twice (gains 2 and 0.5), f1 once (gain 4), f2 once with gain 0 (not counted).
  const model = parseLightGbmModel(
    modelText({
      numFeatures: 3,
      objective: 'regression',
      trees: [
        { ...stump, splitGain: [2] },
        {
          splitFeature: [1, 0, 2],
          splitGain: [4, 0.5, 0],
          threshold: [0, 0, 0],
          leftChild: [1, -1, -3],
          rightChild: [2, -2, -4],
          leafValue: [1, 2, 3, 4],
        },
      ],
    }),
  );

  it.each([
    { type: 'split' as const, numIterations: undefined, expected: [2, 1, 0] },
    { type: 'gain' as const, numIterations: undefined, expected: [2.5, 4, 0] },
    { type: 'split' as const, numIterations: 1, expected: [1, 0, 0] },
  ])('$type over $numIterations iterations', ({ type, numIterations, expected }) => {
    expect(computeFeatureImportance({ model, type, numIterations })).toEqual(expected);
  });
});
