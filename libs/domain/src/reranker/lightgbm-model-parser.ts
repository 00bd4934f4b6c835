import { parseDoubleToken, parseIntArray, parseIntToken } from './lightgbm-numbers';
import { objectiveOutputs, parseLightGbmObjective } from './lightgbm-objective';
import { parseTreeBlock, type ModelLine } from './lightgbm-tree-parser';
import {
  LightGbmModelError,
  type LightGbmFeatureImportance,
  type LightGbmModel,
  type LightGbmTree,
} from './lightgbm-types';

const PARAMETER = /^\[([^:\]]+):\s?(.*)\]$/;

/**
 * Parses a LightGBM text model: the header, the `Tree=N` blocks, and the trailing
 * `feature_importances:` (older files: `feature importances:`), `parameters:` and
 * `pandas_categorical:` sections. Requirements and defaults follow GBDT::LoadModelFromString
 * (num_class, label_index, max_feature_idx, feature_names and feature_infos are required;
 * num_tree_per_iteration defaults to num_class). Stricter than LightGBM in two places that only a
 * damaged file trips: the tree count must match `tree_sizes` and be a whole number of iterations.
 */
export function parseLightGbmModel(text: string): LightGbmModel {
  const lines = text.split(/\r\n|\r|\n/);
  const cursor = { index: 0 };
  const header = readHeader(lines, cursor);

  const intField = (key: string, fallback?: number): number => {
    const field = header.get(key);
    if (field === undefined) {
      if (fallback !== undefined) return fallback;
      throw new LightGbmModelError(`the model header has no ${key}`);
    }
    return parseIntToken(field.text.trim(), key, field.line);
  };
  const numClass = intField('num_class');
  const numTreePerIteration = intField('num_tree_per_iteration', numClass);
  const labelIndex = intField('label_index');
  const maxFeatureIdx = intField('max_feature_idx');
  if (numClass < 1 || numTreePerIteration < 1 || maxFeatureIdx < 0) {
    throw new LightGbmModelError(
      'num_class, num_tree_per_iteration and max_feature_idx + 1 must be positive',
    );
  }
  const featureNames = wordList(header, 'feature_names', maxFeatureIdx + 1);
  const featureInfos = wordList(header, 'feature_infos', maxFeatureIdx + 1);
  const monotone = header.get('monotone_constraints');
  const objectiveField = header.get('objective');
  const objective = parseLightGbmObjective(objectiveField?.text ?? null, objectiveField?.line ?? null);
  if (objective.kind !== 'identity' && objectiveOutputs(objective) !== numTreePerIteration) {
    throw new LightGbmModelError(
      `objective "${objectiveField?.text ?? ''}" gives ${objectiveOutputs(objective)} outputs but ` +
        `the model grows ${numTreePerIteration} trees per iteration`,
    );
  }

  const trees = readTrees(lines, cursor, maxFeatureIdx);
  const treeSizes = header.get('tree_sizes');
  if (treeSizes !== undefined)
    parseIntArray(treeSizes.text, trees.length, 'tree_sizes (one per tree)', treeSizes.line);
  if (trees.length % numTreePerIteration !== 0) {
    throw new LightGbmModelError(
      `${trees.length} trees is not a whole number of ${numTreePerIteration}-tree iterations`,
    );
  }

  return {
    version: header.get('version')?.text ?? null,
    numClass,
    numTreePerIteration,
    labelIndex,
    maxFeatureIdx,
    objectiveText: objectiveField?.text ?? null,
    objective,
    averageOutput: header.has('average_output'),
    featureNames,
    featureInfos,
    monotoneConstraints:
      monotone === undefined
        ? null
        : parseIntArray(monotone.text, maxFeatureIdx + 1, 'monotone_constraints', monotone.line),
    trees,
    ...readTrailer(lines, cursor),
  };
}

/** `key=value` lines up to the first tree; a line without `=` (such as `average_output`) is a flag. */
function readHeader(lines: readonly string[], cursor: { index: number }): Map<string, ModelLine> {
  const header = new Map<string, ModelLine>();
  for (; cursor.index < lines.length; cursor.index++) {
    const text = lines[cursor.index] ?? '';
    if (text.startsWith('Tree=') || text === 'end of trees') break;
    if (text === '') continue;
    const eq = text.indexOf('=');
    const line = cursor.index + 1;
    if (eq < 0) header.set(text, { text: '', line });
    else header.set(text.slice(0, eq), { text: text.slice(eq + 1), line });
  }
  return header;
}

function wordList(header: ReadonlyMap<string, ModelLine>, key: string, expected: number): string[] {
  const field = header.get(key);
  if (field === undefined) throw new LightGbmModelError(`the model header has no ${key}`);
  const words = field.text.split(' ').filter((word) => word !== '');
  if (words.length !== expected) {
    throw new LightGbmModelError(
      `${key} lists ${words.length} features, max_feature_idx says ${expected}`,
      field.line,
    );
  }
  return words;
}

/** Consecutive `Tree=N` blocks, each ended by a blank line; N must count up from 0 as LightGBM writes it. */
function readTrees(
  lines: readonly string[],
  cursor: { index: number },
  maxFeatureIdx: number,
): LightGbmTree[] {
  const trees: LightGbmTree[] = [];
  for (;;) {
    while (cursor.index < lines.length && lines[cursor.index] === '') cursor.index++;
    const text = lines[cursor.index] ?? '';
    if (!text.startsWith('Tree=')) return trees;
    const headerLine = cursor.index + 1;
    const treeIndex = parseIntToken(text.slice('Tree='.length), 'tree index', headerLine);
    if (treeIndex !== trees.length) {
      throw new LightGbmModelError(`expected Tree=${trees.length}, found ${text}`, headerLine);
    }
    const block: ModelLine[] = [];
    for (cursor.index++; cursor.index < lines.length && lines[cursor.index] !== ''; cursor.index++) {
      block.push({ text: lines[cursor.index] ?? '', line: cursor.index + 1 });
    }
    trees.push(parseTreeBlock({ lines: block, treeIndex, maxFeatureIdx, headerLine }));
  }
}

type Trailer = Pick<LightGbmModel, 'featureImportances' | 'parameters' | 'pandasCategorical'>;

/** The sections after `end of trees`; lines outside them are ignored, as LightGBM ignores them. */
function readTrailer(lines: readonly string[], cursor: { index: number }): Trailer {
  const featureImportances: LightGbmFeatureImportance[] = [];
  // Collected as entries: Object.fromEntries defines own properties, so a key such as __proto__
  // cannot reach the prototype the way an assignment would.
  const parameters: [string, string][] = [];
  let pandasCategorical: string | null = null;
  let section: 'none' | 'importances' | 'parameters' = 'none';
  for (; cursor.index < lines.length; cursor.index++) {
    const text = lines[cursor.index] ?? '';
    const line = cursor.index + 1;
    if (text === 'feature_importances:' || text === 'feature importances:') section = 'importances';
    else if (text === 'parameters:') section = 'parameters';
    else if (text === 'end of parameters' || (text === '' && section === 'importances')) section = 'none';
    else if (text.startsWith('pandas_categorical:'))
      pandasCategorical = text.slice('pandas_categorical:'.length);
    else if (section === 'importances') featureImportances.push(readImportance(text, line));
    else if (section === 'parameters') {
      const match = PARAMETER.exec(text);
      if (match) parameters.push([match[1] ?? '', match[2] ?? '']);
    }
  }
  return { featureImportances, parameters: Object.fromEntries(parameters), pandasCategorical };
}

function readImportance(text: string, line: number): LightGbmFeatureImportance {
  const eq = text.lastIndexOf('=');
  if (eq <= 0) throw new LightGbmModelError('a feature importance line must read name=value', line);
  const importance = parseDoubleToken(text.slice(eq + 1), 'feature importance', line);
  return { feature: text.slice(0, eq), importance };
}
