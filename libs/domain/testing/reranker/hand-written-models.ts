/**
 * Builds small LightGBM text models for the specs, in the layout LightGBM 4 writes (header, `Tree=N`
 * blocks ended by blank lines, `end of trees`). Only the fields a spec cares about need to be given.
 */

export interface TreeSpec {
  /** Per leaf. */
  leafValue: number[];
  /** Per internal node; omit all of these for a single-leaf tree. */
  splitFeature?: number[];
  threshold?: number[];
  decisionType?: number[];
  leftChild?: number[];
  rightChild?: number[];
  splitGain?: number[];
  numCat?: number;
  catBoundaries?: number[];
  catThreshold?: number[];
  shrinkage?: number;
  /** Extra `key=value` lines, written after the generated ones (for example linear-leaf fields). */
  extra?: Record<string, string>;
}

export interface ModelSpec {
  numFeatures: number;
  /** The `objective=` value; null writes no objective line. */
  objective: string | null;
  trees: TreeSpec[];
  numClass?: number;
  numTreePerIteration?: number;
  averageOutput?: boolean;
  /** Trailing text after `end of trees` (importances, parameters). */
  trailer?: string;
}

const join = (values: readonly number[]) => values.map((v) => String(v)).join(' ');

export function treeBlock(index: number, tree: TreeSpec): string {
  const numLeaves = tree.leafValue.length;
  const nodes = numLeaves - 1;
  const lines = [
    `Tree=${index}`,
    `num_leaves=${numLeaves}`,
    `num_cat=${tree.numCat ?? 0}`,
    `split_feature=${join(tree.splitFeature ?? [])}`,
    `split_gain=${join(tree.splitGain ?? new Array<number>(nodes).fill(1))}`,
    `threshold=${join(tree.threshold ?? [])}`,
    `decision_type=${join(tree.decisionType ?? new Array<number>(nodes).fill(2))}`,
    `left_child=${join(tree.leftChild ?? [])}`,
    `right_child=${join(tree.rightChild ?? [])}`,
    `leaf_value=${join(tree.leafValue)}`,
    `leaf_weight=${join(new Array<number>(numLeaves).fill(1))}`,
    `leaf_count=${join(new Array<number>(numLeaves).fill(10))}`,
    `internal_value=${join(new Array<number>(nodes).fill(0))}`,
    `internal_weight=${join(new Array<number>(nodes).fill(0))}`,
    `internal_count=${join(new Array<number>(nodes).fill(10 * numLeaves))}`,
  ];
  if (tree.catBoundaries) lines.push(`cat_boundaries=${join(tree.catBoundaries)}`);
  if (tree.catThreshold) lines.push(`cat_threshold=${join(tree.catThreshold)}`);
  for (const [key, value] of Object.entries(tree.extra ?? {})) lines.push(`${key}=${value}`);
  if (!tree.extra || !('is_linear' in tree.extra)) lines.push('is_linear=0');
  lines.push(`shrinkage=${tree.shrinkage ?? 1}`);
  return `${lines.join('\n')}\n\n\n`;
}

export function modelText(spec: ModelSpec): string {
  const numClass = spec.numClass ?? 1;
  const names = Array.from({ length: spec.numFeatures }, (_, i) => `f${i}`);
  const header = [
    'tree',
    'version=v4',
    `num_class=${numClass}`,
    `num_tree_per_iteration=${spec.numTreePerIteration ?? numClass}`,
    'label_index=0',
    `max_feature_idx=${spec.numFeatures - 1}`,
    ...(spec.objective === null ? [] : [`objective=${spec.objective}`]),
    ...(spec.averageOutput ? ['average_output'] : []),
    `feature_names=${names.join(' ')}`,
    `feature_infos=${names.map(() => 'none').join(' ')}`,
  ];
  const trees = spec.trees.map((tree, i) => treeBlock(i, tree));
  return `${header.join('\n')}\n\n${trees.join('')}end of trees\n${spec.trailer ?? ''}`;
}

/** One numerical split on feature 0: left leaf worth 10, right leaf worth 20. */
export function stumpModel(input: { threshold: number; decisionType: number }): string {
  return modelText({
    numFeatures: 1,
    objective: 'regression',
    trees: [
      {
        splitFeature: [0],
        threshold: [input.threshold],
        decisionType: [input.decisionType],
        leftChild: [-1],
        rightChild: [-2],
        leafValue: [10, 20],
      },
    ],
  });
}
