/**
 * A LightGBM text model with one split on feature 0 (`distance` in the feature schemas): d <= 0.3
 * gives raw 2, else raw -1; binary objective, so the score is the sigmoid of that.
 */
export function distanceStumpModel(names: readonly string[]): string {
  return [
    'tree',
    'version=v4',
    'num_class=1',
    'num_tree_per_iteration=1',
    'label_index=0',
    `max_feature_idx=${names.length - 1}`,
    'objective=binary sigmoid:1',
    `feature_names=${names.join(' ')}`,
    `feature_infos=${names.map(() => 'none').join(' ')}`,
    '',
    'Tree=0',
    'num_leaves=2',
    'num_cat=0',
    'split_feature=0',
    'split_gain=1',
    'threshold=0.29999999999999999',
    'decision_type=2',
    'left_child=-1',
    'right_child=-2',
    'leaf_value=2 -1',
    'leaf_weight=1 1',
    'leaf_count=10 10',
    'internal_value=0',
    'internal_weight=0',
    'internal_count=20',
    'is_linear=0',
    'shrinkage=1',
    '',
    '',
    'end of trees',
    '',
  ].join('\n');
}
