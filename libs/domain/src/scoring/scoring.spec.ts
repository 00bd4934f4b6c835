import {
  SCORING_PRESETS,
  ScoringSignals,
  ScoringWeights,
  distanceOfScore,
  embeddingSimilarity,
  evidenceWeight,
  normalizeWeights,
  scoreOfDistance,
  scorePrediction,
  taxonomicProximity,
} from './scoring';

const zero: ScoringWeights = {
  embedding_similarity: 0,
  identity_nw: 0,
  identity_sw: 0,
  evidence_weight: 0,
  taxonomic_proximity: 0,
  neighbor_vote_fraction: 0,
  prediction_score: 0,
};
const signals: ScoringSignals = {
  embedding_similarity: 0.9,
  identity_nw: 0.5,
  identity_sw: null,
  evidence_weight: 1,
  taxonomic_proximity: null,
  neighbor_vote_fraction: 0.4,
  prediction_score: 0.7,
};

describe('normalizeWeights', () => {
  it.each([
    {
      name: 'fills omitted keys with 0',
      raw: { identity_nw: 2 },
      expected: { weights: { ...zero, identity_nw: 2 } },
    },
    { name: 'unknown keys are listed', raw: { colour: 1, size: 2 }, errors: 2 },
    { name: 'negative weights are refused', raw: { identity_nw: -1 }, errors: 1 },
    { name: 'strings are refused', raw: { identity_nw: '1' }, errors: 1 },
    { name: 'all zero is refused', raw: {}, errors: 1 },
    { name: 'an array is not an object', raw: [], errors: 1 },
  ])('$name', ({ raw, expected, errors }) => {
    const result = normalizeWeights(raw);
    if (expected !== undefined) expect(result).toEqual(expected);
    else expect('errors' in result && result.errors).toHaveLength(errors);
  });
});

describe('scorePrediction', () => {
  it.each([
    { name: 'one signal is that signal', weights: { ...zero, embedding_similarity: 1 }, expected: 0.9 },
    {
      name: 'weighted mean',
      weights: { ...zero, embedding_similarity: 1, identity_nw: 3 },
      expected: (0.9 + 1.5) / 4,
    },
    {
      name: 'a null signal leaves the mean',
      weights: { ...zero, embedding_similarity: 1, identity_sw: 5 },
      expected: 0.9,
    },
    { name: 'only null signals score 0', weights: { ...zero, taxonomic_proximity: 1 }, expected: 0 },
  ])('$name', ({ weights, expected }) => expect(scorePrediction(weights, signals)).toBeCloseTo(expected, 12));
});

describe('signals', () => {
  it.each([
    [0, 1],
    [1, 0.5],
    [2, 0],
    [2.5, 0],
    [-0.1, 1],
  ])('embeddingSimilarity(%p) = %p', (d, s) => expect(embeddingSimilarity(d)).toBeCloseTo(s, 12));
  it.each([
    ['EXP', 1],
    ['ida', 1],
    ['IEA', 0.4],
    ['ND', 0],
    ['XYZ', 0.5],
    [null, 0],
  ])('evidenceWeight(%p) = %p', (code, w) => expect(evidenceWeight(code)).toBe(w));
  it.each([
    [0, 1],
    [3, 0.25],
    [null, null],
  ])('taxonomicProximity(%p) = %p', (d, p) => expect(taxonomicProximity(d)).toBe(p));
  it('every preset is valid', () => {
    for (const preset of SCORING_PRESETS) expect('weights' in normalizeWeights(preset.weights)).toBe(true);
  });
});

describe('scoreOfDistance and distanceOfScore', () => {
  it('is the specification’s max(0, 1 - distance), in [0, 1]', () => {
    expect([0, 0.25, 1, 1.5, 2].map(scoreOfDistance)).toEqual([1, 0.75, 0, 0, 0]);
    expect(scoreOfDistance(-0.5)).toBe(1);
  });

  it('gives a blend row the distance whose score is its own', () => {
    for (const score of [0, 0.01, 0.5, 0.591, 1])
      expect(scoreOfDistance(distanceOfScore(score))).toBeCloseTo(score, 12);
    expect(distanceOfScore(1.5)).toBe(0);
  });
});
