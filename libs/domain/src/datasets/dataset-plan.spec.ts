import { DatasetPlanError, planDatasetPairs, snapshotPairLabel } from './dataset-plan';

describe('planDatasetPairs', () => {
  it('pairs consecutive train versions and runs the eval pair from the newest train to the newest test version', () => {
    const plan = planDatasetPairs([222, 220, 221], [227, 226]);
    expect(plan.train.map(snapshotPairLabel)).toEqual(['220->221', '221->222']);
    expect(plan.eval && snapshotPairLabel(plan.eval)).toBe('222->227');
  });

  it('has no eval pair without test versions and ignores repeated versions', () => {
    const plan = planDatasetPairs([1, 2, 2], []);
    expect(plan.train).toEqual([{ old: 1, new: 2 }]);
    expect(plan.eval).toBeNull();
  });

  it.each([
    [[1], [2], /at least two distinct/],
    [[3, 3], [4], /at least two distinct/],
    [[1, 3], [2], /newer than every train version .*got 2/],
    [[1, 3], [3, 4], /got 3/],
  ])('refuses train %j with test %j', (train, test, message) => {
    expect(() => planDatasetPairs(train, test)).toThrow(DatasetPlanError);
    expect(() => planDatasetPairs(train, test)).toThrow(message);
  });
});
