import { parseDoubleToken, parseIntToken } from './lightgbm-numbers';
import { LightGbmModelError, type LightGbmObjective } from './lightgbm-types';

// The regression family shares RegressionL2loss::ConvertOutput (identity, or signed square under
// `sqrt`); poisson, gamma and tweedie share RegressionPoissonLoss's exp; ranking objectives keep the
// raw score. Older LightGBM wrote the cross-entropy objectives as xentropy / xentlambda.
const REGRESSION = new Set(['regression', 'regression_l1', 'huber', 'fair', 'quantile', 'mape']);
const EXPONENTIAL = new Set(['poisson', 'gamma', 'tweedie']);
const IDENTITY = new Set(['lambdarank', 'rank_xendcg', 'custom', 'none', 'null', 'na']);

/**
 * Reads the `objective=` line as LightGBM's ObjectiveFunction::CreateObjectiveFunction(str) does: the
 * first word names the objective, `key:value` words carry its parameters. A missing line (custom
 * objective) means raw scores. Unknown names are refused, as LightGBM refuses them.
 */
export function parseLightGbmObjective(text: string | null, line: number | null = null): LightGbmObjective {
  if (text === null) return { kind: 'identity', name: 'none' };
  const words = text.trim().split(/\s+/);
  const name = words[0] ?? '';
  const params = new Map<string, string>();
  for (const word of words.slice(1)) {
    const parts = word.split(':');
    if (parts.length === 2) params.set(parts[0] ?? '', parts[1] ?? '');
  }
  const sigmoid = (): number => {
    const raw = params.get('sigmoid');
    const value = raw === undefined ? NaN : parseDoubleToken(raw, 'objective sigmoid', line);
    if (!(value > 0))
      throw new LightGbmModelError(`objective "${text}" needs sigmoid:<positive number>`, line);
    return value;
  };
  const numClass = (): number => {
    const raw = params.get('num_class');
    const value = raw === undefined ? -1 : parseIntToken(raw, 'objective num_class', line);
    if (value < 1)
      throw new LightGbmModelError(`objective "${text}" needs num_class:<positive integer>`, line);
    return value;
  };

  if (REGRESSION.has(name)) return { kind: 'regression', name, sqrt: words.includes('sqrt') };
  if (EXPONENTIAL.has(name)) return { kind: 'exponential', name };
  if (IDENTITY.has(name)) return { kind: 'identity', name };
  switch (name) {
    case 'binary':
      return { kind: 'binary', name, sigmoid: sigmoid() };
    case 'cross_entropy':
    case 'xentropy':
      return { kind: 'cross_entropy', name };
    case 'cross_entropy_lambda':
    case 'xentlambda':
      return { kind: 'cross_entropy_lambda', name };
    case 'multiclass':
      return { kind: 'multiclass', name, numClass: numClass() };
    case 'multiclassova':
      return { kind: 'multiclassova', name, numClass: numClass(), sigmoid: sigmoid() };
    default:
      throw new LightGbmModelError(`unknown objective "${name}"`, line);
  }
}

/** How many scores one prediction yields under this objective's transform (1 unless multiclass). */
export function objectiveOutputs(objective: LightGbmObjective): number {
  return objective.kind === 'multiclass' || objective.kind === 'multiclassova' ? objective.numClass : 1;
}

function sigmoidOf(x: number, sigmoid: number): number {
  return 1 / (1 + Math.exp(-sigmoid * x));
}

/**
 * The objective's ConvertOutput: raw scores (one per tree of an iteration) to the prediction scale.
 * Formulas are LightGBM's own, term for term, so results agree to the last bit or two; in particular
 * softmax subtracts the maximum first and cross_entropy_lambda is log(1 + exp(x)), not log1p.
 */
export function convertLightGbmOutput(objective: LightGbmObjective, raw: readonly number[]): number[] {
  switch (objective.kind) {
    case 'identity':
      return [...raw];
    case 'regression':
      return raw.map((x) => (objective.sqrt ? Math.sign(x) * x * x : x));
    case 'exponential':
      return raw.map((x) => Math.exp(x));
    case 'binary':
      return raw.map((x) => sigmoidOf(x, objective.sigmoid));
    case 'cross_entropy':
      return raw.map((x) => sigmoidOf(x, 1));
    case 'cross_entropy_lambda':
      return raw.map((x) => Math.log(1 + Math.exp(x)));
    case 'multiclassova':
      return raw.map((x) => sigmoidOf(x, objective.sigmoid));
    case 'multiclass':
      return softmax(raw);
  }
}

function softmax(raw: readonly number[]): number[] {
  const max = raw.reduce((m, x) => Math.max(m, x), -Infinity);
  const exps = raw.map((x) => Math.exp(x - max));
  let sum = 0;
  for (const e of exps) sum += e;
  return exps.map((e) => e / sum);
}
