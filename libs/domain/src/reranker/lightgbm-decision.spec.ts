import { decodeDecisionType, LIGHTGBM_ZERO_THRESHOLD } from './lightgbm-decision';
import { parseLightGbmModel } from './lightgbm-model-parser';
import { predictLeafIndices, predictRaw } from './lightgbm-predict';
import { modelText, stumpModel } from '../../testing/reranker/hand-written-models';

// decision_type bytes: bit 0 categorical, bit 1 default-left, bits 2-3 missing type (0 None, 1 Zero, 2 NaN).
const NONE_RIGHT = 0;
const NONE_LEFT = 2;
const ZERO_RIGHT = 4;
const ZERO_LEFT = 6;
const NAN_RIGHT = 8;
const NAN_LEFT = 10;
const L = 'left';
const R = 'right';

describe('decodeDecisionType', () => {
  it.each([
    { byte: 0, expected: { isCategorical: false, defaultLeft: false, missingType: 'none' } },
    { byte: 2, expected: { isCategorical: false, defaultLeft: true, missingType: 'none' } },
    { byte: 6, expected: { isCategorical: false, defaultLeft: true, missingType: 'zero' } },
    { byte: 8, expected: { isCategorical: false, defaultLeft: false, missingType: 'nan' } },
    { byte: 9, expected: { isCategorical: true, defaultLeft: false, missingType: 'nan' } },
    { byte: 12, expected: { isCategorical: false, defaultLeft: false, missingType: 'unknown' } },
  ])('decision_type $byte', ({ byte, expected }) => expect(decodeDecisionType(byte)).toEqual(expected));
});

describe('numerical splits (Tree::NumericalDecision)', () => {
  // Expected sides worked out by hand from the rules: NaN becomes 0 unless the missing type is NaN;
  // a missing value (|x| <= float32(1e-35) under Zero, NaN under NaN) follows default_left;
  // everything else goes left when x <= threshold.
  it.each([
    { name: 'None: equal to the threshold goes left', dt: NONE_RIGHT, t: 1.5, x: 1.5, side: L },
    { name: 'None: one ulp above goes right', dt: NONE_RIGHT, t: 1.5, x: 1.5000000000000002, side: R },
    { name: 'None: -Infinity goes left', dt: NONE_RIGHT, t: 1.5, x: -Infinity, side: L },
    { name: 'None: +Infinity goes right', dt: NONE_RIGHT, t: 1.5, x: Infinity, side: R },
    { name: 'None: NaN is compared as 0 (0 <= 1.5)', dt: NONE_RIGHT, t: 1.5, x: NaN, side: L },
    { name: 'None: NaN is compared as 0 (0 > -1)', dt: NONE_RIGHT, t: -1, x: NaN, side: R },
    { name: 'None: default_left does not matter', dt: NONE_LEFT, t: -1, x: NaN, side: R },
    { name: 'None: 0 is an ordinary value', dt: NONE_LEFT, t: -1, x: 0, side: R },
    { name: 'Zero/right: 0 is missing even though 0 <= t', dt: ZERO_RIGHT, t: 1.5, x: 0, side: R },
    { name: 'Zero/right: -0 is missing', dt: ZERO_RIGHT, t: 1.5, x: -0, side: R },
    { name: 'Zero/right: 1e-36 is missing', dt: ZERO_RIGHT, t: 1.5, x: 1e-36, side: R },
    { name: 'Zero/right: -1e-36 is missing', dt: ZERO_RIGHT, t: 1.5, x: -1e-36, side: R },
    {
      name: 'Zero/right: exactly kZeroThreshold is missing',
      dt: ZERO_RIGHT,
      t: 1.5,
      x: LIGHTGBM_ZERO_THRESHOLD,
      side: R,
    },
    { name: 'Zero/right: 1.1e-35 is a value', dt: ZERO_RIGHT, t: 1.5, x: 1.1e-35, side: L },
    { name: 'Zero/right: NaN becomes 0, hence missing', dt: ZERO_RIGHT, t: 1.5, x: NaN, side: R },
    { name: 'Zero/right: values compare normally', dt: ZERO_RIGHT, t: 1.5, x: 1, side: L },
    { name: 'Zero/right: values compare normally (above)', dt: ZERO_RIGHT, t: 1.5, x: 2, side: R },
    { name: 'Zero/left: 0 goes left although 0 > t', dt: ZERO_LEFT, t: -1, x: 0, side: L },
    { name: 'Zero/left: NaN goes left', dt: ZERO_LEFT, t: -1, x: NaN, side: L },
    { name: 'Zero/left: 0.5 goes right', dt: ZERO_LEFT, t: -1, x: 0.5, side: R },
    { name: 'NaN/right: NaN goes right', dt: NAN_RIGHT, t: 1.5, x: NaN, side: R },
    { name: 'NaN/right: 0 is an ordinary value', dt: NAN_RIGHT, t: 1.5, x: 0, side: L },
    { name: 'NaN/right: 0 is an ordinary value (above)', dt: NAN_RIGHT, t: -1, x: 0, side: R },
    { name: 'NaN/left: NaN goes left', dt: NAN_LEFT, t: -1, x: NaN, side: L },
    { name: 'NaN/left: values compare normally', dt: NAN_LEFT, t: -1, x: -2, side: L },
    { name: 'kZero threshold: 0 goes left', dt: NONE_LEFT, t: LIGHTGBM_ZERO_THRESHOLD, x: 0, side: L },
    {
      name: 'kZero threshold: 1e-35 (below float32 1e-35) goes left',
      dt: NONE_LEFT,
      t: LIGHTGBM_ZERO_THRESHOLD,
      x: 1e-35,
      side: L,
    },
    {
      name: 'kZero threshold: 2e-35 goes right',
      dt: NONE_LEFT,
      t: LIGHTGBM_ZERO_THRESHOLD,
      x: 2e-35,
      side: R,
    },
  ])('$name', ({ dt, t, x, side }) => {
    const model = parseLightGbmModel(stumpModel({ threshold: t, decisionType: dt }));
    expect(predictRaw({ model, features: [x] })).toEqual([side === L ? 10 : 20]);
  });

  it('the kZeroThreshold constant is float32(1e-35), the value LightGBM writes', () => {
    expect(LIGHTGBM_ZERO_THRESHOLD).toBe(1.0000000180025095e-35);
  });
});

// Two categorical splits in one tree, so the second bitset starts past the first (cat_boundaries 0 3 4).
// Split 0 on f0, bitset 0, three words: categories {0, 5, 31} in word 0 (1 + 32 + 2^31), {33} in
// word 1 (bit 1), {70} in word 2 (bit 6). Its right child is split 1 on f1, bitset 1: {2} (bit 2).
// Leaves: 0 (value 1) left of split 0, 1 (value 2) left of split 1, 2 (value 3) right of split 1.
const categoricalModel = (decisionType: number) =>
  parseLightGbmModel(
    modelText({
      numFeatures: 2,
      objective: 'regression',
      trees: [
        {
          numCat: 2,
          splitFeature: [0, 1],
          threshold: [0, 1],
          decisionType: [decisionType, 1],
          leftChild: [-1, -2],
          rightChild: [1, -3],
          leafValue: [1, 2, 3],
          catBoundaries: [0, 3, 4],
          catThreshold: [2 ** 31 + 33, 2, 64, 4],
        },
      ],
    }),
  );

describe('categorical splits (Tree::CategoricalDecision)', () => {
  it.each([
    { name: 'category 0 (word 0, bit 0)', x: 0, leaf: 0 },
    { name: 'category 5', x: 5, leaf: 0 },
    { name: 'category 31 (bit 31 of an unsigned word)', x: 31, leaf: 0 },
    { name: 'category 32 (word 1, bit 0, not set)', x: 32, leaf: 2 },
    { name: 'category 33 (word 1, bit 1)', x: 33, leaf: 0 },
    { name: 'category 70 (word 2, bit 6)', x: 70, leaf: 0 },
    { name: 'category 71', x: 71, leaf: 2 },
    { name: 'category 95 (last bit of the last word)', x: 95, leaf: 2 },
    { name: 'category 96 (past the bitset)', x: 96, leaf: 2 },
    { name: 'a large category', x: 1e9, leaf: 2 },
    { name: '5.9 is cast to category 5', x: 5.9, leaf: 0 },
    { name: '-0.5 is cast to category 0 (truncation toward zero)', x: -0.5, leaf: 0 },
    { name: '-1 is negative and goes right', x: -1, leaf: 2 },
    { name: 'NaN goes right', x: NaN, leaf: 2 },
    { name: '+Infinity goes right', x: Infinity, leaf: 2 },
    { name: '-Infinity goes right', x: -Infinity, leaf: 2 },
    { name: '2^31 (beyond int32) goes right', x: 2 ** 31, leaf: 2 },
  ])('$name', ({ x, leaf }) => {
    const model = categoricalModel(1);
    expect(predictLeafIndices({ model, features: [x, 9] })).toEqual([leaf]);
  });

  it.each([
    { name: 'NaN goes right under missing type NaN', dt: 9 },
    { name: 'NaN goes right under missing type NaN with default_left', dt: 11 },
    { name: 'NaN goes right under missing type Zero with default_left', dt: 7 },
  ])('$name', ({ dt }) => {
    expect(predictLeafIndices({ model: categoricalModel(dt), features: [NaN, 9] })).toEqual([2]);
  });

  it.each([
    { name: 'the second bitset sends category 2 left', f1: 2, leaf: 1, value: 2 },
    { name: 'the second bitset sends category 3 right', f1: 3, leaf: 2, value: 3 },
    { name: 'the second bitset does not contain category 0', f1: 0, leaf: 2, value: 3 },
  ])('$name', ({ f1, leaf, value }) => {
    const model = categoricalModel(1);
    expect(predictLeafIndices({ model, features: [1, f1] })).toEqual([leaf]);
    expect(predictRaw({ model, features: [1, f1] })).toEqual([value]);
  });

  it('ignores the categorical bit in a tree without categorical splits (num_cat=0), as GetLeaf does', () => {
    // decision_type 1 says "categorical", but num_cat=0 makes LightGBM use the numerical rule: 3 <= 4.5.
    const model = parseLightGbmModel(stumpModel({ threshold: 4.5, decisionType: 1 }));
    expect(predictRaw({ model, features: [3] })).toEqual([10]);
  });
});
