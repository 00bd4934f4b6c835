import { featureValue, featureVector } from './feature-values';

describe('featureValue', () => {
  const row = {
    distance: 0.25,
    identity_nw: '0.5',
    vote_count: null,
    features: { min_distance: 0.1, ia: null },
  };
  it.each([
    ['distance', 0.25],
    ['identity_nw', 0.5],
    ['min_distance', 0.1],
    ['vote_count', Number.NaN],
    ['ia', Number.NaN],
    ['unknown', Number.NaN],
  ])('%s -> %p', (name, expected) => expect(featureValue(row, name)).toEqual(expected));
  it('builds the vector in the given order', () => {
    expect(Array.from(featureVector(row, ['min_distance', 'distance']))).toEqual([0.1, 0.25]);
  });
});
