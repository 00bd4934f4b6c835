import { pairMetrics } from './classification-metrics';

describe('pairMetrics', () => {
  it.each([
    {
      name: 'perfect separation',
      scores: [0.9, 0.8, 0.2, 0.1],
      labels: [true, true, false, false],
      // tau in (0.2, 0.8]: precision 1, recall 1; lowest such tau is 0.21
      expected: { fmax: 1, threshold: 0.21, auc_pr: 1 },
    },
    {
      name: 'one positive ranked second',
      scores: [0.9, 0.5, 0.1],
      labels: [false, true, false],
      // tau 0.1..0.5 with tau=0.11: predicted {0.9, 0.5}: P=1/2, R=1, F=2/3; AP = precision at the positive = 1/2
      expected: { fmax: 2 / 3, threshold: 0.11, auc_pr: 0.5 },
    },
    {
      name: 'tied scores are one step of the curve',
      scores: [0.5, 0.5, 0.5, 0.5],
      labels: [true, false, true, false],
      expected: { fmax: 2 / 3, threshold: 0.01, auc_pr: 0.5 },
    },
    {
      name: 'no positive',
      scores: [0.4],
      labels: [false],
      expected: { fmax: 0, threshold: null, auc_pr: 0 },
    },
    { name: 'nothing scored', scores: [], labels: [], expected: { fmax: 0, threshold: null, auc_pr: 0 } },
  ])('$name', ({ scores, labels, expected }) => {
    const got = pairMetrics(scores, labels);
    expect(got.fmax).toBeCloseTo(expected.fmax, 12);
    expect(got.threshold).toBe(expected.threshold);
    expect(got.auc_pr).toBeCloseTo(expected.auc_pr, 12);
  });
});
