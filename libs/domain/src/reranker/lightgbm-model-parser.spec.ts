import { parseLightGbmModel } from './lightgbm-model-parser';
import { predictRaw } from './lightgbm-predict';
import { LightGbmModelError } from './lightgbm-types';
import { modelText, treeBlock, type TreeSpec } from '../../testing/reranker/hand-written-models';

const stump: TreeSpec = {
  splitFeature: [1],
  splitGain: [3.5],
  threshold: [0.5],
  decisionType: [2],
  leftChild: [-1],
  rightChild: [-2],
  leafValue: [-1, 1],
};
const trailer = [
  '',
  'feature_importances:',
  'f1=1',
  '',
  'parameters:',
  '[boosting: gbdt]',
  '[objective: binary]',
  '[data: ]',
  '[metric: auc, binary_logloss]',
  '',
  'end of parameters',
  '',
  'pandas_categorical:null',
  '',
].join('\n');
const valid = modelText({
  numFeatures: 2,
  objective: 'binary sigmoid:1',
  trees: [{ leafValue: [0.1] }, stump],
  trailer,
});

describe('parseLightGbmModel', () => {
  it('reads the header, the trees and the trailing sections', () => {
    const model = parseLightGbmModel(valid);
    expect(model).toMatchObject({
      version: 'v4',
      numClass: 1,
      numTreePerIteration: 1,
      labelIndex: 0,
      maxFeatureIdx: 1,
      objectiveText: 'binary sigmoid:1',
      averageOutput: false,
      featureNames: ['f0', 'f1'],
      featureInfos: ['none', 'none'],
      monotoneConstraints: null,
      featureImportances: [{ feature: 'f1', importance: 1 }],
      parameters: { boosting: 'gbdt', objective: 'binary', data: '', metric: 'auc, binary_logloss' },
      pandasCategorical: 'null',
    });
    expect(model.trees).toHaveLength(2);
    expect(model.trees[1]).toMatchObject({
      numLeaves: 2,
      splitFeature: [1],
      splitGain: [3.5],
      threshold: [0.5],
      leftChild: [-1],
      rightChild: [-2],
      leafValue: [-1, 1],
      leafWeight: [1, 1],
      leafCount: [10, 10],
      internalCount: [20],
      isLinear: false,
      shrinkage: 1,
    });
  });

  it('reads Windows line endings the same way', () => {
    const model = parseLightGbmModel(valid.replace(/\n/g, '\r\n'));
    expect(model.trees).toHaveLength(2);
    expect(predictRaw({ model, features: [0, 1] })).toEqual([1.1]);
  });

  it('reads flags, monotone constraints and a feature name list with repeated spaces', () => {
    const text = valid
      .replace('feature_names=f0 f1', 'feature_names=f0  f1\nmonotone_constraints=1 -1\naverage_output')
      .replace('version=v4\n', '');
    const model = parseLightGbmModel(text);
    expect(model).toMatchObject({ version: null, averageOutput: true, featureNames: ['f0', 'f1'] });
    expect(model.monotoneConstraints).toEqual([1, -1]);
  });

  it('defaults num_tree_per_iteration to num_class and accepts a model without trees', () => {
    const model = parseLightGbmModel(
      modelText({ numFeatures: 1, objective: 'regression', trees: [] }).replace(
        /num_tree_per_iteration=1\n/,
        '',
      ),
    );
    expect(model.numTreePerIteration).toBe(1);
    expect(predictRaw({ model, features: [3] })).toEqual([0]);
  });

  it('parses non-finite numbers as C++ prints them', () => {
    const text = valid
      .replace('internal_value=0\n', 'internal_value=-nan\n')
      .replace('split_gain=3.5', 'split_gain=inf');
    const model = parseLightGbmModel(text);
    expect(model.trees[1]?.internalValue[0]).toBeNaN();
    expect(model.trees[1]?.splitGain[0]).toBe(Infinity);
  });

  it.each<{ name: string; edit: (text: string) => string; message: RegExp }>([
    { name: 'no num_class', edit: (t) => t.replace('num_class=1\n', ''), message: /no num_class/ },
    { name: 'no label_index', edit: (t) => t.replace('label_index=0\n', ''), message: /no label_index/ },
    {
      name: 'no feature_names',
      edit: (t) => t.replace(/feature_names=.*\n/, ''),
      message: /no feature_names/,
    },
    {
      name: 'too few feature names',
      edit: (t) => t.replace('feature_names=f0 f1', 'feature_names=f0'),
      message: /lists 1/,
    },
    {
      name: 'too few feature infos',
      edit: (t) => t.replace('feature_infos=none none', 'feature_infos=none'),
      message: /feature_infos/,
    },
    {
      name: 'a non-integer num_class',
      edit: (t) => t.replace('num_class=1', 'num_class=1.5'),
      message: /not an integer/,
    },
    {
      name: 'an unknown objective',
      edit: (t) => t.replace('binary sigmoid:1', 'hinge'),
      message: /unknown objective/,
    },
    {
      name: 'tree_sizes for a different tree count',
      edit: (t) => t.replace('label_index=0', 'label_index=0\ntree_sizes=10'),
      message: /tree_sizes/,
    },
    { name: 'a tree out of order', edit: (t) => t.replace('Tree=1', 'Tree=2'), message: /expected Tree=1/ },
    {
      name: 'a tree without leaf_value',
      edit: (t) => t.replace('leaf_value=-1 1\n', ''),
      message: /no leaf_value/,
    },
    { name: 'a tree without num_cat', edit: (t) => t.replace(/num_cat=0\n/g, ''), message: /no num_cat/ },
    {
      name: 'too many leaf values',
      edit: (t) => t.replace('leaf_value=-1 1', 'leaf_value=-1 1 2'),
      message: /expected 2 values/,
    },
    {
      name: 'a non-numeric threshold',
      edit: (t) => t.replace('threshold=0.5', 'threshold=0.5x'),
      message: /not a number/,
    },
    {
      name: 'a split on an unknown feature',
      edit: (t) => t.replace('split_feature=1', 'split_feature=2'),
      message: /beyond max_feature_idx/,
    },
    {
      name: 'a child beyond the leaves',
      edit: (t) => t.replace('right_child=-2', 'right_child=-3'),
      message: /leaf 2, beyond/,
    },
    {
      name: 'a leaf reached twice',
      edit: (t) => t.replace('right_child=-2', 'right_child=-1'),
      message: /reached twice/,
    },
    {
      name: 'a cycle back to the root',
      edit: (t) => t.replace('right_child=-2', 'right_child=0'),
      message: /reached twice/,
    },
    {
      name: 'a decision_type beyond int8',
      edit: (t) => t.replace('decision_type=2\n', 'decision_type=300\n'),
      message: /not an int8/,
    },
    {
      name: 'a line without = in a tree',
      edit: (t) => t.replace('shrinkage=1\n\n\nend', 'shrinkage=1\nbroken\n\n\nend'),
      message: /key=value/,
    },
    { name: 'a malformed importance', edit: (t) => t.replace('f1=1', 'f1=many'), message: /not a number/ },
  ])('refuses $name', ({ edit, message }) => {
    const text = edit(valid);
    expect(text).not.toBe(valid);
    expect(() => parseLightGbmModel(text)).toThrow(LightGbmModelError);
    expect(() => parseLightGbmModel(text)).toThrow(message);
  });

  it('names the line of a malformed field', () => {
    const text = valid.replace('threshold=0.5', 'threshold=abc');
    const line = text.split('\n').indexOf('threshold=abc') + 1;
    expect(() => parseLightGbmModel(text)).toThrow(`line ${line}: Tree=1 threshold: "abc" is not a number`);
  });

  it('refuses trees that are not a whole number of iterations', () => {
    const text = modelText({ numFeatures: 2, objective: null, numClass: 2, trees: [stump, stump, stump] });
    expect(() => parseLightGbmModel(text)).toThrow(/whole number of 2-tree iterations/);
  });

  it.each<{ name: string; tree: TreeSpec; message: RegExp }>([
    {
      name: 'an unreachable internal node',
      tree: {
        ...stump,
        splitFeature: [1, 0],
        splitGain: [1, 1],
        threshold: [0, 0],
        decisionType: [2, 2],
        leftChild: [-1, -2],
        rightChild: [-3, -3],
        leafValue: [1, 2, 3],
      },
      message: /unreachable/,
    },
    {
      name: 'a categorical split pointing past its bitsets',
      tree: {
        ...stump,
        numCat: 1,
        decisionType: [1],
        threshold: [1],
        catBoundaries: [0, 1],
        catThreshold: [1],
      },
      message: /points at bitset 1/,
    },
    {
      name: 'decreasing cat_boundaries',
      tree: {
        ...stump,
        numCat: 2,
        decisionType: [1],
        threshold: [0],
        catBoundaries: [0, 2, 1],
        catThreshold: [1],
      },
      message: /never decrease/,
    },
    {
      name: 'a cat_threshold word beyond uint32',
      tree: {
        ...stump,
        numCat: 1,
        decisionType: [1],
        threshold: [0],
        catBoundaries: [0, 1],
        catThreshold: [2 ** 32],
      },
      message: /uint32/,
    },
    {
      name: 'a missing cat_threshold',
      tree: { ...stump, numCat: 1, decisionType: [1], threshold: [0], catBoundaries: [0, 1] },
      message: /no cat_threshold/,
    },
  ])('refuses $name', ({ tree, message }) => {
    const text = modelText({ numFeatures: 2, objective: 'regression', trees: [tree] });
    expect(() => parseLightGbmModel(text)).toThrow(message);
  });

  it('ignores everything but leaf_value in a single-leaf tree, as LightGBM does', () => {
    const block = treeBlock(0, { leafValue: [0.75] }).replace('split_feature=', 'split_feature=garbage');
    const text = modelText({ numFeatures: 1, objective: 'regression', trees: [] }).replace(
      'end of trees',
      `${block}end of trees`,
    );
    expect(predictRaw({ model: parseLightGbmModel(text), features: [1] })).toEqual([0.75]);
  });
});
