import { convertLightGbmOutput, objectiveOutputs, parseLightGbmObjective } from './lightgbm-objective';
import { LightGbmModelError, type LightGbmObjective } from './lightgbm-types';

describe('parseLightGbmObjective', () => {
  it.each<{ text: string | null; expected: LightGbmObjective }>([
    { text: null, expected: { kind: 'identity', name: 'none' } },
    { text: 'binary sigmoid:1', expected: { kind: 'binary', name: 'binary', sigmoid: 1 } },
    { text: 'binary sigmoid:0.5', expected: { kind: 'binary', name: 'binary', sigmoid: 0.5 } },
    { text: 'regression', expected: { kind: 'regression', name: 'regression', sqrt: false } },
    { text: 'regression sqrt', expected: { kind: 'regression', name: 'regression', sqrt: true } },
    { text: 'huber', expected: { kind: 'regression', name: 'huber', sqrt: false } },
    { text: 'quantile', expected: { kind: 'regression', name: 'quantile', sqrt: false } },
    { text: 'regression_l1 sqrt', expected: { kind: 'regression', name: 'regression_l1', sqrt: true } },
    { text: 'poisson', expected: { kind: 'exponential', name: 'poisson' } },
    { text: 'tweedie', expected: { kind: 'exponential', name: 'tweedie' } },
    { text: 'cross_entropy', expected: { kind: 'cross_entropy', name: 'cross_entropy' } },
    { text: 'xentropy', expected: { kind: 'cross_entropy', name: 'xentropy' } },
    { text: 'xentlambda', expected: { kind: 'cross_entropy_lambda', name: 'xentlambda' } },
    { text: 'lambdarank', expected: { kind: 'identity', name: 'lambdarank' } },
    { text: 'multiclass num_class:3', expected: { kind: 'multiclass', name: 'multiclass', numClass: 3 } },
    {
      text: 'multiclassova num_class:3 sigmoid:2',
      expected: { kind: 'multiclassova', name: 'multiclassova', numClass: 3, sigmoid: 2 },
    },
  ])('"$text"', ({ text, expected }) => expect(parseLightGbmObjective(text)).toEqual(expected));

  it.each([
    { name: 'an unknown objective', text: 'hinge' },
    { name: 'binary without sigmoid', text: 'binary' },
    { name: 'binary with sigmoid 0', text: 'binary sigmoid:0' },
    { name: 'binary with a non-numeric sigmoid', text: 'binary sigmoid:x' },
    { name: 'multiclass without num_class', text: 'multiclass' },
    { name: 'multiclassova without sigmoid', text: 'multiclassova num_class:3' },
  ])('refuses $name', ({ text }) => {
    expect(() => parseLightGbmObjective(text)).toThrow(LightGbmModelError);
  });

  it('counts outputs', () => {
    expect(objectiveOutputs(parseLightGbmObjective('multiclass num_class:4'))).toBe(4);
    expect(objectiveOutputs(parseLightGbmObjective('binary sigmoid:1'))).toBe(1);
  });
});

describe('convertLightGbmOutput', () => {
  const e = Math.E;
  // Expected values written out from the closed forms of each objective's ConvertOutput.
  it.each<{ name: string; objective: string | null; raw: number[]; expected: number[] }>([
    { name: 'no objective keeps raw scores', objective: null, raw: [-1.25], expected: [-1.25] },
    { name: 'regression is the identity', objective: 'regression', raw: [-1.25], expected: [-1.25] },
    {
      name: 'regression sqrt squares, keeping the sign',
      objective: 'regression sqrt',
      raw: [-1.5],
      expected: [-2.25],
    },
    { name: 'regression sqrt of a positive score', objective: 'regression sqrt', raw: [3], expected: [9] },
    { name: 'poisson exponentiates', objective: 'poisson', raw: [1], expected: [e] },
    { name: 'gamma exponentiates', objective: 'gamma', raw: [0], expected: [1] },
    { name: 'binary sigmoid:1 at 0', objective: 'binary sigmoid:1', raw: [0], expected: [0.5] },
    { name: 'binary sigmoid:1 at ln 3', objective: 'binary sigmoid:1', raw: [Math.log(3)], expected: [0.75] },
    {
      name: 'binary sigmoid:2 doubles the slope',
      objective: 'binary sigmoid:2',
      raw: [Math.log(3) / 2],
      expected: [0.75],
    },
    {
      name: 'cross_entropy is a plain sigmoid',
      objective: 'cross_entropy',
      raw: [-Math.log(3)],
      expected: [0.25],
    },
    { name: 'cross_entropy_lambda is log(1 + e^x)', objective: 'xentlambda', raw: [0], expected: [Math.LN2] },
    { name: 'lambdarank keeps raw scores', objective: 'lambdarank', raw: [7], expected: [7] },
    {
      name: 'multiclass softmax',
      objective: 'multiclass num_class:3',
      raw: [0, Math.log(2), Math.log(5)],
      expected: [1 / 8, 2 / 8, 5 / 8],
    },
    {
      name: 'multiclass softmax survives huge scores (the maximum is subtracted first)',
      objective: 'multiclass num_class:2',
      raw: [1000, 1000],
      expected: [0.5, 0.5],
    },
    {
      name: 'multiclassova applies a sigmoid per class',
      objective: 'multiclassova num_class:2 sigmoid:1',
      raw: [0, Math.log(3)],
      expected: [0.5, 0.75],
    },
  ])('$name', ({ objective, raw, expected }) => {
    const out = convertLightGbmOutput(parseLightGbmObjective(objective), raw);
    expect(out).toHaveLength(expected.length);
    out.forEach((value, i) => expect(value).toBeCloseTo(expected[i] ?? NaN, 14));
  });
});
