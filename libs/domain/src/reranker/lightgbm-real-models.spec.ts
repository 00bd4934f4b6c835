import { readFileSync } from 'node:fs';
import path from 'node:path';
import { computeFeatureImportance } from './lightgbm-importance';
import { parseLightGbmModel } from './lightgbm-model-parser';
import { lightGbmIterations, predict, predictLeafIndices, predictRaw } from './lightgbm-predict';
import type { LightGbmModel } from './lightgbm-types';

// Model files written by LightGBM itself, with the outputs LightGBM computed for them; provenance and
// licences are in testing/README.md.
const TESTING = path.join(__dirname, '..', '..', 'testing', 'reranker');
const read = (file: string) => readFileSync(path.join(TESTING, file), 'utf8');
const TOLERANCE = 1e-9;

function expectClose(actual: number, expected: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(TOLERANCE);
}

/** The file's own feature_importances section agrees with split counts recomputed from its trees. */
function expectImportancesMatchTrees(model: LightGbmModel): void {
  const split = computeFeatureImportance({ model, type: 'split' });
  const fromFile = new Map(model.featureImportances.map((entry) => [entry.feature, entry.importance]));
  model.featureNames.forEach((name, i) => expect([name, split[i]]).toEqual([name, fromFile.get(name) ?? 0]));
}

describe('go-lgbm testdata/v4/binary.txt (LightGBM 4, binary, 20 trees)', () => {
  const model = parseLightGbmModel(read('zhongdai-go-lgbm/binary.txt'));
  const reference = JSON.parse(read('zhongdai-go-lgbm/binary.json')) as {
    inputs: number[][];
    predictions: number[];
    raw_predictions: number[];
  };
  const rows = reference.inputs.map((features, i) => ({
    row: i,
    features,
    probability: reference.predictions[i] ?? NaN,
    raw: reference.raw_predictions[i] ?? NaN,
  }));

  it('reads the header', () => {
    expect(model).toMatchObject({
      version: 'v4',
      numClass: 1,
      numTreePerIteration: 1,
      maxFeatureIdx: 9,
      objective: { kind: 'binary', sigmoid: 1 },
      averageOutput: false,
      pandasCategorical: 'null',
    });
    expect(model.trees).toHaveLength(20);
    expect(model.parameters['num_leaves']).toBe('8');
    expect(model.trees[15]?.threshold[6]).toBe(1.0000000180025095e-35);
  });

  it.each(rows)('row $row: raw score as LightGBM', ({ features, raw }) => {
    const [score] = predictRaw({ model, features });
    expectClose(score ?? NaN, raw);
  });

  it.each(rows)('row $row: probability as LightGBM', ({ features, probability }) => {
    const [p] = predict({ model, features });
    expectClose(p ?? NaN, probability);
  });

  it('feature_importances matches the split counts of the trees', () => expectImportancesMatchTrees(model));
});

describe('leaves testdata/model_simple.txt (LightGBM 2, binary, categorical split with missing type NaN)', () => {
  const model = parseLightGbmModel(read('dmitryikh-leaves/model_simple.txt'));
  // Leaf values copied from the file. Hand traversal of both trees: split 0 is categorical on X2
  // (decision_type 9 = categorical + missing NaN), bitset words 0 0 0 16, so only category 100
  // (word 3, bit 4) goes left, to leaf 0; NaN and every other value go right, to split 1, numerical
  // on X1 (decision_type 2: default left, missing None, so NaN is compared as 0) with threshold
  // 340.50000000000006: leaf 1 when X1 <= it, leaf 2 otherwise.
  const tree0 = [0.56697267424823339, 0.3584987837673016, 0.41213915936587919];
  const tree1 = [0.12883103567558912, -0.063872842243335157, -0.016484332942214807];
  const raw = (leaf: number) => (tree0[leaf] ?? NaN) + (tree1[leaf] ?? NaN);
  // Rows and 8-decimal raw scores from leaves' own test (lgensemble_test.go, TestLGEnsemble), which
  // it checked against LightGBM.
  it.each([
    { x1: 0, x2: 0, leaf: 1, leaves: 0.29462594 },
    { x1: 1000, x2: 0, leaf: 2, leaves: 0.39565483 },
    { x1: 800, x2: 0, leaf: 2, leaves: 0.39565483 },
    { x1: 800, x2: 100, leaf: 0, leaves: 0.69580371 },
    { x1: 0, x2: 100, leaf: 0, leaves: 0.69580371 },
    { x1: 1000, x2: NaN, leaf: 2, leaves: 0.39565483 },
    { x1: NaN, x2: NaN, leaf: 1, leaves: 0.29462594 },
    { x1: 340.50000000000006, x2: 99, leaf: 1, leaves: 0.29462594 },
  ])('X1=$x1 X2=$x2 reaches leaf $leaf of both trees', ({ x1, x2, leaf, leaves }) => {
    const features = [x1, x2];
    expect(predictLeafIndices({ model, features })).toEqual([leaf, leaf]);
    const [score] = predictRaw({ model, features });
    expectClose(score ?? NaN, raw(leaf));
    expect(Math.abs((score ?? NaN) - leaves)).toBeLessThan(5e-9);
    const [p] = predict({ model, features });
    expectClose(p ?? NaN, 1 / (1 + Math.exp(-raw(leaf))));
  });

  it('reads the old "feature importances:" heading and the parameters', () => {
    expect(model.featureImportances).toEqual([
      { feature: 'X1', importance: 2 },
      { feature: 'X2', importance: 2 },
    ]);
    expect(model.parameters['boosting']).toBe('gbdt');
    expect(model.parameters['data']).toBe('');
    expect(model.trees[0]?.catThreshold).toEqual([0, 0, 0, 16]);
    expectImportancesMatchTrees(model);
  });
});

describe('leaves testdata/lg_rf_iris.model (LightGBM 2, random forest, average_output)', () => {
  const model = parseLightGbmModel(read('dmitryikh-leaves/lg_rf_iris.model'));
  const rows = read('dmitryikh-leaves/iris_test.libsvm')
    .trim()
    .split('\n')
    .map((line) =>
      line
        .split(' ')
        .slice(1)
        .map((pair) => Number(pair.split(':')[1])),
    );
  const expected = read('dmitryikh-leaves/lg_rf_iris_true_predictions.txt').trim().split('\n').map(Number);
  const cases = rows.map((features, i) => ({ row: i, features, expected: expected[i] ?? NaN }));

  it('has 30 single-split forests trees and averages them', () => {
    expect(model.averageOutput).toBe(true);
    expect(lightGbmIterations(model)).toBe(30);
    expect(cases).toHaveLength(30);
  });

  // The reference predictions come from LightGBM 2.x, whose GBDT::Predict divided a random forest's
  // raw sum by the number of iterations and then skipped the objective's transform. The averaged raw
  // score is therefore what is compared; current LightGBM goes on to apply the sigmoid, which
  // `predict` does, checked here against the formula.
  it.each(cases)('row $row: averaged raw score as LightGBM', ({ features, expected: reference }) => {
    const [sum] = predictRaw({ model, features });
    const average = (sum ?? NaN) / 30;
    expectClose(average, reference);
    const [p] = predict({ model, features });
    expectClose(p ?? NaN, 1 / (1 + Math.exp(-average)));
  });

  it('feature importances match the split counts of the trees', () => expectImportancesMatchTrees(model));
});
