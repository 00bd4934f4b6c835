/** One temporal pair of annotation-set versions: kNN against `old`, labels from what `new` adds. */
export interface SnapshotPair {
  readonly old: number;
  readonly new: number;
}

export interface DatasetPlan {
  readonly train: readonly SnapshotPair[];
  /** Null when no test version was given: the export then has no eval table. */
  readonly eval: SnapshotPair | null;
}

export class DatasetPlanError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatasetPlanError';
  }
}

/** The stored label of a pair, as in `train_snapshot_pairs`: "220->221". */
export function snapshotPairLabel(pair: SnapshotPair): string {
  return `${pair.old}->${pair.new}`;
}

/**
 * Which annotation-set pairs a research dataset is built from. Consecutive train versions make the
 * training pairs (220, 221, 222 give 220->221 and 221->222), so every label comes from a later
 * release than the reference it was predicted from. The evaluation pair runs from the newest train
 * version to the newest test version: the reference a model trained on this data would be deployed
 * against, judged on annotations that arrived after all of its training labels. Test versions must
 * therefore all come after the train versions; otherwise evaluation labels would leak into training.
 */
export function planDatasetPairs(
  trainVersions: readonly number[],
  testVersions: readonly number[],
): DatasetPlan {
  const train = [...new Set(trainVersions)].sort((a, b) => a - b);
  const test = [...new Set(testVersions)].sort((a, b) => a - b);
  if (train.length < 2)
    throw new DatasetPlanError('train_versions needs at least two distinct versions to form a pair');
  const lastTrain = train[train.length - 1]!;
  const early = test.filter((v) => v <= lastTrain);
  if (early.length > 0)
    throw new DatasetPlanError(
      `test versions must be newer than every train version (newest train version ${lastTrain}; got ${early.join(', ')})`,
    );
  return {
    train: train.slice(1).map((v, i) => ({ old: train[i]!, new: v })),
    eval: test.length === 0 ? null : { old: lastTrain, new: test[test.length - 1]! },
  };
}
