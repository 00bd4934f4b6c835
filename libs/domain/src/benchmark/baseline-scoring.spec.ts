import { baselineScoringFor } from './baseline-scoring';

const R = '8b7b8f3e-0a57-4c55-9a55-1f0c3e6f7a11';

describe('baselineScoringFor', () => {
  it.each([
    { name: 'nothing selected: the baseline', payload: {}, baseline: 'balanced', expected: 'balanced' },
    { name: 'nothing selected, no baseline configured', payload: {}, baseline: null, expected: null },
    { name: 'a scoring config', payload: { scoring_config_id: R }, baseline: 'balanced', expected: null },
    {
      name: 'one re-ranker for every row',
      payload: { reranker_model_id: R },
      baseline: 'balanced',
      expected: null,
    },
    {
      name: 'a re-ranker for one category and aspect',
      payload: { rerankers: { nk: { mfo: R } } },
      baseline: 'balanced',
      expected: null,
    },
    {
      name: 'an empty re-ranker selection',
      payload: { rerankers: {} },
      baseline: 'balanced',
      expected: null,
    },
  ])('$name', ({ payload, baseline, expected }) =>
    expect(baselineScoringFor({ payload, config: { baseline_scoring: baseline } })).toBe(expected),
  );
});
